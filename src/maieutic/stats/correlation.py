"""Pearson and Spearman correlation with p-values (scipy), with defined edge cases."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from maieutic.stats._errors import UndefinedStatistic


@dataclass(frozen=True)
class Correlation:
    """A correlation coefficient, its two-sided p-value and the number of pairs."""

    r: float
    p_value: float
    n: int


def _clean(x: Sequence[float | None], y: Sequence[float | None]) -> tuple[np.ndarray, np.ndarray]:
    if len(x) != len(y):
        raise ValueError(f"sequences differ in length: {len(x)} vs {len(y)}")
    pairs = [
        (a, b)
        for a, b in zip(x, y, strict=True)
        if a is not None and b is not None and not (np.isnan(a) or np.isnan(b))
    ]
    if len(pairs) < 3:
        raise UndefinedStatistic(f"correlation needs at least 3 complete pairs, got {len(pairs)}")
    arr = np.array(pairs, dtype=float)
    if np.ptp(arr[:, 0]) == 0 or np.ptp(arr[:, 1]) == 0:
        raise UndefinedStatistic("correlation is undefined: one variable has zero variance")
    return arr[:, 0], arr[:, 1]


def pearson(x: Sequence[float | None], y: Sequence[float | None]) -> Correlation:
    """Pearson's r over complete pairs."""
    from scipy import stats as sps  # imported here: it costs ~0.8 s at start-up

    a, b = _clean(x, y)
    result = sps.pearsonr(a, b)
    return Correlation(float(result.statistic), float(result.pvalue), len(a))


def spearman(x: Sequence[float | None], y: Sequence[float | None]) -> Correlation:
    """Spearman's rho over complete pairs (average ranks for ties)."""
    from scipy import stats as sps

    a, b = _clean(x, y)
    result = sps.spearmanr(a, b)
    return Correlation(float(result.statistic), float(result.pvalue), len(a))
