"""Percentile bootstrap confidence intervals for any per-item statistic."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from maieutic.stats._errors import UndefinedStatistic

DEFAULT_SEED = 12345


@dataclass(frozen=True, kw_only=True)
class Interval:
    """A point estimate with its confidence interval."""

    estimate: float
    low: float
    high: float
    confidence: float
    n_resamples: int
    n_undefined: int
    """Resamples on which the statistic was undefined (e.g. one category drawn)."""


def bootstrap_ci(
    statistic: Callable[..., float],
    *columns: Sequence,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = DEFAULT_SEED,
) -> Interval:
    """Resample items (rows across all ``columns`` together) and take percentiles.

    ``statistic(*columns)`` must accept the resampled columns. Resamples where it is
    undefined are skipped and counted; if more than half are, the interval is
    undefined and ``UndefinedStatistic`` is raised.
    """
    if not columns:
        raise ValueError("give at least one column")
    n = len(columns[0])
    if any(len(c) != n for c in columns):
        raise ValueError("columns differ in length")
    estimate = statistic(*columns)
    rng = np.random.default_rng(seed)
    values, undefined = [], 0
    for _ in range(n_resamples):
        idx = rng.integers(0, n, n)
        try:
            values.append(statistic(*[[c[i] for i in idx] for c in columns]))
        except UndefinedStatistic:
            undefined += 1
    if len(values) < n_resamples / 2:
        raise UndefinedStatistic(f"statistic undefined on {undefined} of {n_resamples} resamples")
    return percentile_interval(estimate, values, confidence=confidence, n_undefined=undefined)


def percentile_interval(
    estimate: float, values: Sequence[float], *, confidence: float, n_undefined: int
) -> Interval:
    """The ``confidence`` percentile interval of the defined resampled ``values`` around
    ``estimate``; the resamples counted are the defined ones plus ``n_undefined``."""
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return Interval(
        estimate=float(estimate),
        low=float(low),
        high=float(high),
        confidence=confidence,
        n_resamples=len(values) + n_undefined,
        n_undefined=n_undefined,
    )
