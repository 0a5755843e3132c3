"""The paper's breakdowns of rubric scores, one column per judge (people included):
by generator (Table 3), by whether the question names an aspect (Table 4), and by
prompting scenario (Figure 6; Figure 7 splits each into the criterion groups).

How the paper averages ("Argument-Based Comparative Question Answering Evaluation
Benchmark"), read back from its own numbers: every figure is formed from the
generator × scenario cells of Table 5, not from the answers pooled. Table 3's entry
for a generator is the mean of its scenario cells' means ± the mean of their standard
deviations (GPT-4o's Human* 15.96 ± 1.35 is the mean of Table 5's 15.22, 14.48, 17.24,
16.89 and of 1.52, 1.62, 1.33, 0.94). Table 4's entry is the mean ± the population
standard deviation of the cells' means within the split (the released human table
gives 13.43 ± 2.98 with an aspect and 15.01 ± 2.69 without, the paper's figures). The
scenario breakdown follows Table 4's rule (the figures print no numbers to check).
``average="answers"`` pools the answers instead: mean ± sample standard deviation.
Answers whose scores are incomplete are counted, never averaged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from maieutic.tasks.compqa.data import Answer, rubric

BY = ("generator", "aspect", "scenario")
PARTS = ("total", "structure", "relevance", "quality")
AVERAGES = ("cells", "answers")
WITH_ASPECT, WITHOUT_ASPECT = "with aspect", "without aspect"
SPREAD = {
    ("generator", "cells"): "mean of the scenario cells' sd",
    ("aspect", "cells"): "population sd of the cell means",
    ("scenario", "cells"): "population sd of the generators' means",
}
"""What the ± of each breakdown is (with ``average="answers"``: the answers' sd)."""


@dataclass(frozen=True, kw_only=True)
class Figure:
    """One entry of a breakdown: a mean, its spread, and what it was formed from."""

    mean: float | None
    """None when no answer of the row has complete scores."""
    spread: float | None
    n: int
    """Answers with complete scores."""
    n_cells: int
    n_incomplete: int
    n_spread_cells: int | None = None
    """The cells the spread is formed from (a one-answer cell has no sd, so with
    ``by="generator"`` it counts in ``n_cells`` and the mean but not here); None when
    the spread is the answers' sd."""

    def to_json(self) -> dict:
        """The JSON form."""
        return {
            "mean": self.mean,
            "spread": self.spread,
            "n": self.n,
            "n_cells": self.n_cells,
            "n_spread_cells": self.n_spread_cells,
            "n_incomplete": self.n_incomplete,
        }


def part_score(answer: Answer, part: str) -> float:
    """The total, or the sum of one criterion group, of a complete answer."""
    assert answer.check is not None and answer.check.complete
    if part == "total":
        return float(answer.check.total or 0.0)
    groups = rubric()
    return float(sum(v for c, v in answer.check.scores.items() if groups[c].group == part))


def row_key(by: str) -> Callable[[Answer], str]:
    """What an answer's row is in the breakdown ``by``."""
    if by == "generator":
        return lambda a: a.generator
    if by == "scenario":
        return lambda a: a.scenario
    return lambda a: WITH_ASPECT if a.aspect.strip() else WITHOUT_ASPECT


def _complete(answer: Answer) -> bool:
    return answer.check is not None and answer.check.complete


def _sample_sd(values: Sequence[float]) -> float | None:
    return float(np.std(values, ddof=1)) if len(values) > 1 else None


def figure(answers: Sequence[Answer], by: str, *, part: str, average: str) -> Figure:
    """One row's entry from its answers (one judge's)."""
    done = [a for a in answers if _complete(a)]
    incomplete = len(answers) - len(done)
    cells: dict[tuple[str, str], list[float]] = {}
    for a in done:
        cells.setdefault((a.generator, a.scenario), []).append(part_score(a, part))
    if not done:
        return Figure(mean=None, spread=None, n=0, n_cells=0, n_incomplete=incomplete)
    if average == "answers":
        values = [v for vs in cells.values() for v in vs]
        return Figure(
            mean=float(np.mean(values)),
            spread=_sample_sd(values),
            n=len(done),
            n_cells=len(cells),
            n_incomplete=incomplete,
        )
    means = [float(np.mean(vs)) for vs in cells.values()]
    if by == "generator":
        sds = [sd for vs in cells.values() if (sd := _sample_sd(vs)) is not None]
        spread = float(np.mean(sds)) if sds else None  # a one-answer cell has no sd
        n_spread = len(sds)
    else:
        spread = float(np.std(means, ddof=0)) if len(means) > 1 else None
        n_spread = len(means) if spread is not None else 0
    mean = float(np.mean(means))
    return Figure(
        mean=mean,
        spread=spread,
        n=len(done),
        n_cells=len(cells),
        n_incomplete=incomplete,
        n_spread_cells=n_spread,
    )


def _order(by: str, labels: list[str]) -> list[str]:
    if by == "aspect":
        return [x for x in (WITH_ASPECT, WITHOUT_ASPECT) if x in labels]
    if by == "scenario":  # 1–4 first, then the non-scenario datasets as first seen
        numbered = sorted((x for x in labels if x.isdigit()), key=int)
        return numbered + [x for x in labels if not x.isdigit()]
    return labels


def breakdown(
    judges: dict[str, Sequence[Answer]], by: str, *, part: str = "total", average: str = "cells"
) -> list[tuple[str, dict[str, Figure]]]:
    """Rows of the breakdown ``by``: for each, every judge's ``Figure`` (a judge with no
    answer in a row has no entry there)."""
    key = row_key(by)
    labels: list[str] = []
    grouped: dict[str, dict[str, list[Answer]]] = {}
    for name, answers in judges.items():
        for a in answers:
            label = key(a)
            if label not in labels:
                labels.append(label)
            grouped.setdefault(label, {}).setdefault(name, []).append(a)
    return [
        (
            label,
            {
                name: figure(rows, by, part=part, average=average)
                for name, rows in grouped[label].items()
            },
        )
        for label in _order(by, labels)
    ]
