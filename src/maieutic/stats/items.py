"""A task's headline score as a function of its items: what the bootstrap intervals
resample (``Task.interval_statistic``), and the plain helpers tasks build it from."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from maieutic.stats._errors import UndefinedStatistic


@dataclass(frozen=True)
class ItemStatistic:
    """How a task's score is recomputed from items: one column, and the function."""

    column: Sequence[Any]
    statistic: Callable[[Sequence[Any]], float]
    what: str
    """What the interval is of, for the caption."""


def mean(values: Sequence[float]) -> float:
    """The plain mean, as the tasks' scores average items (an error over no values)."""
    if not values:
        raise UndefinedStatistic("no items")
    return float(sum(values) / len(values))


def numbers(items: Sequence[dict[str, Any]], key: str) -> list[float]:
    """The real numbers (booleans excluded) found under ``key`` in ``items``."""
    return [
        float(i[key])
        for i in items
        if isinstance(i.get(key), int | float) and not isinstance(i.get(key), bool)
    ]


def item_records(result: Any) -> list[dict[str, Any]]:
    """A result's per-item records (the JSON-ready ones)."""
    return [i for i in result.records() if isinstance(i, dict)]
