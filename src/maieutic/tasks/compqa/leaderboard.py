"""The generator × scenario table of rubric scores (the paper's Table 3 / Table 5
layout): per group of answers, the mean ± standard deviation (n − 1) of the total and
of each criterion group, over the answers whose 15 scores are all valid; the others are
counted, never summed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from maieutic.tasks.compqa.data import Answer, rubric


@dataclass(kw_only=True)
class GroupScores:
    """One generator × scenario cell."""

    generator: str
    scenario: str
    n: int
    n_incomplete: int
    total: tuple[float, float] | None
    groups: dict[str, tuple[float, float]]

    def to_json(self) -> dict:
        """The JSON form."""
        return {
            "generator": self.generator,
            "scenario": self.scenario,
            "n": self.n,
            "n_incomplete": self.n_incomplete,
            "total": self.total,
            "groups": self.groups,
        }


def _mean_std(values: Sequence[float]) -> tuple[float, float]:
    std = float(np.std(values, ddof=1)) if len(values) > 1 else 0.0
    return float(np.mean(values)), std


def leaderboard(answers: Sequence[Answer]) -> list[GroupScores]:
    """Scored answers grouped by generator and scenario, in first-seen order."""
    criteria = rubric()
    cells: dict[tuple[str, str], list[Answer]] = {}
    for answer in answers:
        cells.setdefault((answer.generator, answer.scenario), []).append(answer)
    out = []
    for (generator, scenario), group in cells.items():
        complete = [a for a in group if a.check is not None and a.check.complete]
        groups = {}
        for name in ("structure", "relevance", "quality"):
            sums = [
                sum(v for c, v in a.check.scores.items() if criteria[c].group == name)
                for a in complete
            ]
            if sums:
                groups[name] = _mean_std(sums)
        totals = [a.check.total for a in complete]
        out.append(
            GroupScores(
                generator=generator,
                scenario=scenario,
                n=len(group),
                n_incomplete=len(group) - len(complete),
                total=_mean_std(totals) if totals else None,
                groups=groups,
            )
        )
    return out
