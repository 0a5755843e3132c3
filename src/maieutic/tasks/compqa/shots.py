"""Few-shot examples for the rubric judge: human-scored answers from a named file.

Accepted files: the annotators' TSVs (``score_dict.1…15`` columns), the averaged table
(``C1…C15``), or answer JSON in the released layout with a ``score_dict``. Only answers
with all 15 criteria validly scored are used. Answers under evaluation are never shown
as examples: a candidate whose whitespace-normalised text equals an evaluated answer's
is removed first. The examples are drawn with a seeded generator, so a run is
reproducible, and the same seed draws the same examples.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from maieutic.errors import DataError
from maieutic.tasks.compqa.data import check_scores, read_answers

DEFAULT_SHOTS = 2
"""The paper adds two human-scored answers to the few-shot prompt (Figure 5)."""


@dataclass(frozen=True)
class Shot:
    """One human-scored example answer."""

    object1: str
    object2: str
    aspect: str
    comparison: str
    scores: dict[int, float]


def normalised(text: str) -> str:
    """Text with whitespace collapsed (the 367-row table flattened line breaks)."""
    return " ".join(text.split())


def _from_tsv(path: Path) -> list[Shot]:
    csv.field_size_limit(1 << 30)
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    if not rows:
        return []
    header = rows[0].keys()
    prefix = "score_dict." if "score_dict.1" in header else "C" if "C1" in header else None
    if prefix is None or not {"object1", "object2", "comparison"} <= set(header):
        raise DataError(
            "expected columns object1, object2, comparison and score_dict.1…15 or C1…C15",
            where=str(path),
        )
    shots = []
    for row in rows:
        raw = {str(i): row.get(f"{prefix}{i}", "") for i in range(1, 16)}
        if not all(v.strip() for v in raw.values()):
            continue  # this annotator did not score the row
        check = check_scores(raw)
        if check.complete and not check.problems:
            shots.append(
                Shot(
                    row["object1"],
                    row["object2"],
                    row.get("aspect") or "",
                    row["comparison"],
                    check.scores,
                )
            )
    return shots


def read_shots(path: str | Path) -> list[Shot]:
    """Every fully scored answer of ``path``."""
    path = Path(path)
    if not path.exists():
        raise DataError("file not found", where=str(path))
    if path.suffix.lower() in {".tsv", ".csv"}:
        return _from_tsv(path)
    return [
        Shot(a.object1, a.object2, a.aspect, a.comparison, a.check.scores)
        for a in read_answers(path)
        if a.check is not None and a.check.complete and not a.check.problems
    ]


def choose_shots(path: str | Path, n: int, seed: int, evaluated: Iterable[str] = ()) -> list[Shot]:
    """``n`` examples from ``path``, none of them an evaluated answer."""
    excluded = {normalised(t) for t in evaluated}
    candidates = [s for s in read_shots(path) if normalised(s.comparison) not in excluded]
    if len(candidates) < n:
        raise DataError(
            f"{len(candidates)} fully scored answer(s) usable as examples (after leaving "
            f"out the evaluated ones), {n} needed",
            where=str(path),
        )
    return random.Random(seed).sample(candidates, n)
