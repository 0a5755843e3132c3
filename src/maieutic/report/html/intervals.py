"""Bootstrap intervals of each system's headline score, from its per-item records.

Items are resampled with replacement (``maieutic.stats.bootstrap_ci``, percentile
intervals) with one fixed seed, so the same results file always gives the same
interval. The statistic is recomputed from the items and must reproduce the stored
score; when it does not (or the task's score is not a function of items, as AURA's
set-level metrics), no interval is drawn and the report says why.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from maieutic.evaluate.result import EvalResult
from maieutic.stats import UndefinedStatistic, bootstrap_ci
from maieutic.stats.bootstrap import DEFAULT_SEED

SEED = DEFAULT_SEED
"""The bootstrap seed (stated in the report)."""
N_RESAMPLES = 2000
CONFIDENCE = 0.95


@dataclass(frozen=True)
class SystemInterval:
    """A system's score with its interval (``low``/``high`` None when there is none)."""

    estimate: float | None
    low: float | None
    high: float | None
    n: int
    """Items the statistic is computed over."""
    note: str = ""
    """Why there is no interval, when there is none."""


@dataclass(frozen=True)
class ItemStatistic:
    """How a task's score is recomputed from items: one column, and the function."""

    column: Sequence[Any]
    statistic: Callable[[Sequence[Any]], float]
    what: str
    """What the interval is of, for the caption."""


def _mean(values: Sequence[float]) -> float:
    if not values:
        raise UndefinedStatistic("no items")
    return float(sum(values) / len(values))


def _numbers(items: Sequence[dict], key: str) -> list[float]:
    return [
        float(i[key])
        for i in items
        if isinstance(i.get(key), int | float) and not isinstance(i.get(key), bool)
    ]


def _focus_macro_f1(result: EvalResult) -> ItemStatistic:
    """Macro-F1 over the typology's classes, None of the Above included, in the
    result's mode (as the headline score): gold and predicted type sets binarised once,
    then per resample only counts are summed."""
    from maieutic.tasks.focus.typology import NONE_ID, typology

    mode = result.summary.get("mode", "category")
    classes = typology().ids
    gold, predicted = [], []
    for item in result.items:
        gold.append(set(item.get("gold") or []) or {NONE_ID})
        types = set(item.get("predicted") or [])
        category = item.get("category")
        if mode == "category" and category:
            types &= {*typology().category_types(category), NONE_ID}
        predicted.append(types or {NONE_ID})
    truth = np.array([[c in g for c in classes] for g in gold], dtype=bool).reshape(
        -1, len(classes)
    )
    guess = np.array([[c in p for c in classes] for p in predicted], dtype=bool).reshape(
        -1, len(classes)
    )

    def macro_f1(rows: Sequence[int]) -> float:
        index = np.asarray(rows, dtype=int)
        t, p = truth[index], guess[index]
        tp = (t & p).sum(axis=0)
        wrong = (~t & p).sum(axis=0) + (t & ~p).sum(axis=0)
        denominator = 2 * tp + wrong
        # sklearn's zero_division=0: a class never given nor predicted scores 0
        f1 = np.divide(2 * tp, denominator, out=np.zeros(len(classes)), where=denominator > 0)
        return float(f1.mean())

    return ItemStatistic(list(range(len(result.items))), macro_f1, f"macro-F1 ({mode} mode)")


def item_statistic(result: EvalResult) -> ItemStatistic | str:
    """The statistic behind ``result.score`` as a function of its items, or why there
    is none."""
    items = [i for i in result.records() if isinstance(i, dict)]
    if result.task == "cqs":
        return ItemStatistic(_numbers(items, "score"), _mean, "mean intervention score")
    if result.task == "focus":
        return _focus_macro_f1(result)
    if result.task == "compqa":
        totals = _numbers(items, "score")
        if not totals:
            return "no answer has all 15 criteria scored"
        return ItemStatistic(totals, _mean, "mean rubric total of completely scored answers")
    if result.task == "aura":
        return "a set-level score (coverage, non-redundancy and entropy are not item means)"
    scores = _numbers(items, "score")
    if items and len(scores) == len(items):
        return ItemStatistic(scores, _mean, "mean item score")
    return "no per-item scores"


def system_interval(result: EvalResult) -> SystemInterval:
    """The interval of ``result``'s score (seeded), or the reason there is none."""
    found = item_statistic(result)
    if isinstance(found, str):
        return SystemInterval(result.score, None, None, len(result.items), found)
    n = len(found.column)
    if result.score is None:
        return SystemInterval(None, None, None, n, "no score")
    try:
        again = found.statistic(found.column)
    except UndefinedStatistic:
        return SystemInterval(result.score, None, None, n, "no scored items")
    if not math.isclose(again, result.score, rel_tol=1e-6, abs_tol=1e-9):
        note = f"the items give {again:.4f}, not the stored score: no interval"
        return SystemInterval(result.score, None, None, n, note)
    if n < 2:
        return SystemInterval(result.score, None, None, n, "fewer than two items")
    try:
        interval = bootstrap_ci(
            found.statistic, found.column, n_resamples=N_RESAMPLES, confidence=CONFIDENCE, seed=SEED
        )
    except UndefinedStatistic as exc:
        return SystemInterval(result.score, None, None, n, str(exc))
    return SystemInterval(result.score, interval.low, interval.high, n, found.what)


def method_note() -> str:
    """One sentence saying how the intervals are made (for the page header)."""
    return (
        f"Intervals: {CONFIDENCE:.0%} percentile bootstrap over items, {N_RESAMPLES} "
        f"resamples, seed {SEED} (maieutic.stats.bootstrap_ci); the same inputs always "
        "give the same intervals."
    )
