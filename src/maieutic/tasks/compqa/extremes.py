"""Extreme scores (the paper's Figure 8): on the answers both a judge and people scored,
how the one side scores the answers the other side scored highest and lowest, by
generator.

Four panels, as the figure's two rows: the answers the judge scored high (total ≥
``high``) and low (≤ ``low``), with people's totals of them; and the answers people
scored high and low, with the judge's totals. The paper names people's "bad" range as
3–14, so ``low`` defaults to 14; it states no bound for "high", so ``high`` (18 by
default) is maieutic's choice and is printed and signed with the figures. Answers are
paired as ``meta-eval compqa`` pairs them (``judge_agreement.match``); totals are sums
of the fifteen criteria.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from maieutic.tasks.compqa.data import generator_scenario
from maieutic.tasks.compqa.human_agreement import TOTAL, ScoredPair

PANELS = (
    ("judge", "high", "people"),
    ("judge", "low", "people"),
    ("people", "high", "judge"),
    ("people", "low", "judge"),
)
"""(who picked the answers, which end, whose scores are shown)."""
ALL = "all"


@dataclass(frozen=True)
class Spread:
    """The scores one side gave one generator's answers in one panel."""

    generator: str
    values: tuple[float, ...]

    def to_json(self) -> dict:
        """The JSON form: summary and the count of every score value."""
        counts = Counter(self.values)
        return {
            "generator": self.generator,
            "n": len(self.values),
            "mean": float(np.mean(self.values)),
            "sd": float(np.std(self.values, ddof=1)) if len(self.values) > 1 else None,
            "min": min(self.values),
            "median": float(np.median(self.values)),
            "max": max(self.values),
            "counts": {f"{k:g}": counts[k] for k in sorted(counts)},
        }


@dataclass(frozen=True, kw_only=True)
class Panel:
    """One subfigure."""

    picked_by: str
    end: str
    shown: str
    bound: float
    rows: list[Spread]
    """Per generator (in first-seen order), then ``all``."""


def panels(pairs: Sequence[ScoredPair], high: float, *, low: float) -> list[Panel]:
    """The four panels over the paired answers (``first`` = people, ``second`` = judge)."""
    out = []
    for picked_by, end, shown in PANELS:
        bound = high if end == "high" else low
        groups: dict[str, list[float]] = {}
        for pair in pairs:
            scores = {"people": pair.first[TOTAL], "judge": pair.second[TOTAL]}
            picked = scores[picked_by]
            if (picked >= high) if end == "high" else (picked <= low):
                generator = generator_scenario(pair.filename)[0]
                groups.setdefault(generator, []).append(scores[shown])
        rows = [Spread(g, tuple(v)) for g, v in groups.items()]
        if rows:
            rows.append(Spread(ALL, tuple(v for r in rows for v in r.values)))
        out.append(Panel(picked_by=picked_by, end=end, shown=shown, bound=bound, rows=rows))
    return out
