"""Results files of ``maieutic evaluate cqs`` with as many interventions as asked: a
real results file of the sample dataset (scored with chrF), its interventions repeated
under new ids with seeded scores in thirds, as critical questions' scores are. For
``maieutic compare`` at scale (its tests and ``benchmarks/bench_compare_memory.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from maieutic.samples import sample_path


def sample_results(folder: Path) -> Path:
    """A real results file of two systems on the sample dataset (chrF, no model)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / "sample-results.json"
    if out.exists():
        return out
    submission = sample_path("cqs/sample_submission.json")
    other = folder / "other.json"
    other.write_bytes(submission.read_bytes())
    subprocess.run(
        [
            *(sys.executable, "-m", "maieutic", "-q", "evaluate", "cqs", "--evaluator", "chrf"),
            *("--data", str(sample_path("cqs/sample_dataset.json")), str(submission), str(other)),
            *("--out", str(out)),
        ],
        check=True,
        capture_output=True,
    )
    return out


def large_results(
    base: Path,
    n_units: int,
    out: Path,
    *,
    systems: int = 2,
    seed: int = 0,
    questions: bool = True,
) -> Path:
    """``base``'s results with ``n_units`` interventions each, the first result repeated
    as ``systems`` systems, each a little better than the one before; without their
    scored questions when not ``questions`` (a file a fifth the size: what ``compare``
    itself needs, not reading, is then most of its memory)."""
    record = json.loads(base.read_text())
    first = record["results"][0]
    rng = np.random.default_rng(seed)
    results = []
    for k in range(systems):
        scores = np.clip(rng.integers(0, 4, n_units) + rng.integers(0, 2, n_units) * k, 0, 3) / 3
        items = []
        for n, score in enumerate(scores.tolist()):
            item = dict(first["items"][n % len(first["items"])])
            item["intervention_id"] = f"unit-{n}"
            item["score"] = score
            if not questions:
                item["cqs"] = []
            items.append(item)
        result = dict(first, submission=f"system-{k}", items=items)
        result["score"] = float(np.mean(scores))
        results.append(result)
    record["results"] = results
    out.write_text(json.dumps(record))
    return out
