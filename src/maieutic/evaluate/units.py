"""A result's headline score as a sum over the task's units, for paired comparisons.

Each task says what its unit is (the intervention, the argument, the question, the
document) and what each unit adds to the score (``Task.paired_units``): ids, a row of
additive counts per unit, and how column sums make the score
(``maieutic.stats.paired.AdditiveStatistic``). Two systems are then compared unit by
unit: the same units resampled together, each unit's rows swapped between them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from maieutic.stats.paired import AdditiveStatistic, mean_of


@dataclass(frozen=True, kw_only=True)
class Units:
    """What each unit adds to a result's score."""

    ids: tuple[str, ...]
    statistic: AdditiveStatistic
    unit: str
    """What a unit is, plural ("interventions", "documents")."""
    whole_result: bool = False
    """True when the score is a property of the whole result (one unit per result: a
    set-level score on one document); results with the same submission name then make
    one system, one unit per result."""

    def __post_init__(self) -> None:
        if len(self.ids) != self.statistic.counts.shape[0]:
            raise ValueError("one row of counts per unit id")

    def reordered(self, ids: Sequence[str]) -> Units:
        """The same units in the order of ``ids`` (the same set)."""
        at = {key: n for n, key in enumerate(self.ids)}
        rows = self.statistic.counts[[at[key] for key in ids]]
        statistic = AdditiveStatistic(rows, self.statistic.finish)
        return Units(
            ids=tuple(ids), statistic=statistic, unit=self.unit, whole_result=self.whole_result
        )


class UnitsOf(Protocol):
    """A task's hook: a result's units, or a line saying why it has none."""

    def __call__(self, result: Any) -> Units | str: ...


def grouped_mean(ids: Sequence[str], values: Sequence[float | None], unit: str) -> Units:
    """The mean of ``values`` over the items that have one, items grouped into units
    by ``ids`` (several items of one unit add their sums and counts: the score is still
    the mean over items, and a unit is resampled with all its items)."""
    order: dict[str, int] = {}
    for key in ids:
        order.setdefault(key, len(order))
    counts = np.zeros((len(order), 2))
    item_counts = mean_of(np.array([np.nan if v is None else v for v in values], dtype=float))
    np.add.at(counts, [order[key] for key in ids], item_counts.counts)
    return Units(
        ids=tuple(order), statistic=AdditiveStatistic(counts, item_counts.finish), unit=unit
    )


def whole_result_unit(key: str, score: float, unit: str) -> Units:
    """One unit (the whole result) adding its score to a mean over units."""
    return Units(ids=(key,), statistic=mean_of(np.array([score])), unit=unit, whole_result=True)


def merged(parts: Sequence[Units]) -> Units:
    """Units of several results of one system (each a whole result) as one set."""
    first = parts[0]
    counts = np.vstack([p.statistic.counts for p in parts])
    ids = tuple(key for p in parts for key in p.ids)
    return Units(
        ids=ids,
        statistic=AdditiveStatistic(counts, first.statistic.finish),
        unit=first.unit,
        whole_result=True,
    )


def item_values(
    records: Sequence[dict[str, Any]], key: Callable[[dict[str, Any]], str], value: str
) -> tuple[list[str], list[float | None]]:
    """Each record's unit id and its number under ``value`` (None when it has none)."""
    ids, values = [], []
    for record in records:
        found = record.get(value)
        number = isinstance(found, int | float) and not isinstance(found, bool)
        ids.append(key(record))
        values.append(float(found) if number else None)
    return ids, values
