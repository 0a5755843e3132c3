"""Bootstrap intervals of each system's headline score, from its per-item records.

Items are resampled with replacement (``maieutic.stats.bootstrap_ci``, percentile
intervals) with one fixed seed, so the same results file always gives the same
interval. The statistic is recomputed from the items and must reproduce the stored
score; when it does not (or the task's score is not a function of items, as set-level
metrics are), no interval is drawn and the report says why. Each task says how its
score is made from items (``Task.interval_statistic``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from maieutic.evaluate.result import EvalResult
from maieutic.report.hooks import ItemStatistic, item_records, mean, numbers
from maieutic.report.html.task_hooks import known_task
from maieutic.stats import UndefinedStatistic, bootstrap_ci
from maieutic.stats.bootstrap import DEFAULT_SEED

SEED = DEFAULT_SEED
"""The bootstrap seed (stated in the report)."""
N_RESAMPLES = 2000
CONFIDENCE = 0.95


@dataclass(frozen=True, kw_only=True)
class SystemInterval:
    """A system's score with its interval (``low``/``high`` None when there is none)."""

    estimate: float | None
    low: float | None
    high: float | None
    n: int
    """Items the statistic is computed over."""
    note: str = ""
    """Why there is no interval, when there is none."""


def item_statistic(result: EvalResult) -> ItemStatistic | str:
    """The statistic behind ``result.score`` as a function of its items (the task's
    ``interval_statistic``; by default the mean item score), or why there is none."""
    task = known_task(result.task)
    if task is not None and task.interval_statistic is not None:
        return task.interval_statistic(result)
    items = item_records(result)
    scores = numbers(items, "score")
    if items and len(scores) == len(items):
        return ItemStatistic(scores, mean, "mean item score")
    return "no per-item scores"


def system_interval(result: EvalResult) -> SystemInterval:
    """The interval of ``result``'s score (seeded), or the reason there is none."""
    found = item_statistic(result)
    if isinstance(found, str):
        return SystemInterval(
            estimate=result.score, low=None, high=None, n=len(result.items), note=found
        )
    n = len(found.column)
    if result.score is None:
        return SystemInterval(estimate=None, low=None, high=None, n=n, note="no score")
    try:
        again = found.statistic(found.column)
    except UndefinedStatistic:
        return SystemInterval(
            estimate=result.score, low=None, high=None, n=n, note="no scored items"
        )
    if not math.isclose(again, result.score, rel_tol=1e-6, abs_tol=1e-9):
        note = f"the items give {again:.4f}, not the stored score: no interval"
        return SystemInterval(estimate=result.score, low=None, high=None, n=n, note=note)
    if n < 2:
        return SystemInterval(
            estimate=result.score, low=None, high=None, n=n, note="fewer than two items"
        )
    try:
        interval = bootstrap_ci(
            found.statistic, found.column, n_resamples=N_RESAMPLES, confidence=CONFIDENCE, seed=SEED
        )
    except UndefinedStatistic as exc:
        return SystemInterval(estimate=result.score, low=None, high=None, n=n, note=str(exc))
    return SystemInterval(
        estimate=result.score, low=interval.low, high=interval.high, n=n, note=found.what
    )


def method_note() -> str:
    """One sentence saying how the intervals are made (for the page header)."""
    return (
        f"Intervals: {CONFIDENCE:.0%} percentile bootstrap over items, {N_RESAMPLES} "
        f"resamples, seed {SEED} (maieutic.stats.bootstrap_ci); the same inputs always "
        "give the same intervals."
    )
