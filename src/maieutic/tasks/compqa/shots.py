"""Few-shot examples for the rubric judge: human-scored answers from a named file.

Accepted files: the annotators' TSVs (``score_dict.1…15`` columns), the averaged table
(``C1…C15``), or answer JSON in the released layout with a ``score_dict``. Only answers
with all 15 criteria validly scored are used. Answers under evaluation are never shown
as examples: a candidate whose whitespace-normalised text equals an evaluated answer's
is removed first. The examples are drawn with a seeded generator, so a run is
reproducible, and the same seed draws the same examples.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from maieutic.errors import DataError
from maieutic.tasks.compqa.data import read_answers
from maieutic.tasks.compqa.human_files import read_tsv, row_scores

DEFAULT_SHOTS = 2
"""The paper adds two human-scored answers to the few-shot prompt (Figure 5)."""


@dataclass(frozen=True, kw_only=True)
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


_SHOT_COLUMNS = "expected columns object1, object2, comparison and score_dict.1…15 or C1…C15"


def _from_tsv(path: Path) -> list[Shot]:
    """The fully scored rows of a people's score file (read and checked as
    ``meta-eval compqa`` reads it; a score above its criterion's maximum is no example)."""
    rows = read_tsv(path, [])
    header = rows[0].cells.keys()
    prefix = "score_dict." if "score_dict.1" in header else "C" if "C1" in header else None
    columns = [f"{prefix}{i}" for i in range(1, 16)]
    if prefix is None or not {"object1", "object2", "comparison", *columns} <= set(header):
        raise DataError(_SHOT_COLUMNS, where=str(path))
    shots = []
    for row in rows:
        checked = row_scores(row, columns, path)
        if checked.scores is None or checked.notes:
            continue  # not (validly) scored by this annotator
        cells = row.cells
        shots.append(
            Shot(
                object1=cells["object1"],
                object2=cells["object2"],
                aspect=cells.get("aspect") or "",
                comparison=cells["comparison"],
                scores=dict(enumerate(checked.scores, start=1)),
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
        Shot(
            object1=a.object1,
            object2=a.object2,
            aspect=a.aspect,
            comparison=a.comparison,
            scores=a.check.scores,
        )
        for a in read_answers(path)
        if a.check is not None and a.check.complete and not a.check.problems
    ]


def choose_shots(
    path: str | Path, n: int, *, seed: int, evaluated: Iterable[str] = ()
) -> list[Shot]:
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
