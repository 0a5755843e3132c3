"""Report the blind rating of the held-out questions.

    python benchmarks/rating/report.py

Reads ``key.json`` and the two raters' labels (``labels_a.jsonl``, ``labels_b.jsonl``:
``{"qid", "label", "well_formed", "reason"}`` per line) and prints: Cohen's kappa
between the raters (Useful vs rest, three classes, well-formed); calibration (the share
of reference questions labelled Useful / Invalid by the benchmark's annotators that the
raters rated Useful); per system the Useful, Invalid and well-formed rates over both
raters' labels with n; and the STS score at 0.6 (embedded MiniLM) of each generated
submission on the same 30 interventions.
"""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from pathlib import Path

from sklearn.metrics import cohen_kappa_score

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2] / "shared" / "data" / "cqs" / "validation-dev.json"
SYSTEMS = ("old-templates", "old-selector", "claims", "socratic", "reference-useful",
           "reference-invalid")  # fmt: skip


def _labels(path: Path) -> dict[str, dict]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {row["qid"]: row for row in rows}


def kappas(a: dict, b: dict) -> dict[str, float]:
    """Cohen's kappa on the items both raters labelled."""
    common = sorted(set(a) & set(b))
    return {
        "useful_vs_rest": cohen_kappa_score(
            [a[q]["label"] == "Useful" for q in common], [b[q]["label"] == "Useful" for q in common]
        ),
        "three_classes": cohen_kappa_score(
            [a[q]["label"] for q in common], [b[q]["label"] for q in common]
        ),
        "well_formed": cohen_kappa_score(
            [bool(a[q]["well_formed"]) for q in common], [bool(b[q]["well_formed"]) for q in common]
        ),
        "n": len(common),
    }


def per_system(key: dict, raters: list[dict]) -> dict[str, dict]:
    """Useful, Invalid and well-formed rates over both raters' labels."""
    out: dict[str, dict] = defaultdict(lambda: {"n": 0, "Useful": 0, "Invalid": 0, "wf": 0})
    for qid, entry in key.items():
        for rater in raters:
            if qid not in rater:
                continue
            for system in entry["systems"]:
                row = out[system]
                row["n"] += 1
                row["Useful"] += rater[qid]["label"] == "Useful"
                row["Invalid"] += rater[qid]["label"] == "Invalid"
                row["wf"] += bool(rater[qid]["well_formed"])
    return out


def sts_scores(key: dict) -> dict[str, float]:
    """STS at 0.6 (the benchmark script's threshold) per generated system."""
    from maieutic.registry import create
    from maieutic.tasks.cqs.data import load_cq_dataset, load_submission

    data = json.loads(DATA.read_text())
    held = sorted({entry["intervention_id"] for entry in key.values()})
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        refs = Path(tmp) / "refs.json"
        refs.write_text(json.dumps({k: data[k] for k in held}))
        dataset = load_cq_dataset(refs)
        for system in ("old-templates", "old-selector", "claims"):
            by_text: dict[str, list[str]] = {k: [] for k in held}
            for entry in key.values():
                if system in entry["systems"]:
                    by_text[entry["intervention_id"]].append(entry["question"])
            sub = {k: {"intervention_id": k, "cqs": [{"id": str(i), "cq": q}
                                                       for i, q in enumerate(v)]}
                   for k, v in by_text.items()}  # fmt: skip
            path = Path(tmp) / f"{system}.json"
            path.write_text(json.dumps(sub))
            [result] = create("evaluator", task="cqs", name="sts").evaluate(
                dataset, [load_submission(path)]
            )
            out[system] = result.score
    return out


def main() -> None:
    """Print the report."""
    key = json.loads((HERE / "key.json").read_text())
    a, b = _labels(HERE / "labels_a.jsonl"), _labels(HERE / "labels_b.jsonl")
    k = kappas(a, b)
    print(
        f"raters: {k['n']} items both labelled; Cohen's kappa Useful-vs-rest "
        f"{k['useful_vs_rest']:.2f}, three classes {k['three_classes']:.2f}, well-formed "
        f"{k['well_formed']:.2f}"
    )
    rows = per_system(key, [a, b])
    sts = sts_scores(key)
    print(
        f"{'system':18s} {'n':>4s} {'well-formed':>11s} {'Useful':>7s} {'Invalid':>8s} {'STS':>6s}"
    )
    for system in SYSTEMS:
        row = rows.get(system)
        if not row or not row["n"]:
            continue
        n = row["n"]
        score = f"{sts[system]:.3f}" if system in sts else "—"
        print(
            f"{system:18s} {n:4d} {row['wf'] / n:11.2f} {row['Useful'] / n:7.2f} "
            f"{row['Invalid'] / n:8.2f} {score:>6s}"
        )
    print("(n: labels, two per question; calibration = the reference rows' Useful rate)")


if __name__ == "__main__":
    main()
