"""The FOCUS headline score as a function of items, for the report's bootstrap
intervals: macro-F1 over the typology's classes, None of the Above included, in the
result's mode.

Each item's gold and predicted type sets are rebuilt from its record with the task's
own rules (``FocusItem.type_set``, ``classification.predicted_types``: an empty set
is None of the Above; category mode keeps only the category's two types), binarised
once over the typology's classes; each resample then only sums counts. F1 from the
counts is what scikit-learn computes for the score (``zero_division=0``) at a small
fraction of its cost, which 2,000 resamples need; the report draws an interval only
when the full sample gives the stored score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from maieutic.evaluate.units import Units
from maieutic.report.hooks import ItemStatistic
from maieutic.stats.paired import AdditiveStatistic
from maieutic.tasks.focus.classification import MODES, predicted_types
from maieutic.tasks.focus.type_labels import FocusItem, SpanLabel
from maieutic.tasks.focus.typology import typology


def _item(types: Any, *, category: Any) -> FocusItem:
    """An argument whose labels are ``types`` (as a result record lists them)."""
    labels = tuple(SpanLabel(type=str(t), text="") for t in types or [])
    return FocusItem(
        id="", argument="", category=category if isinstance(category, str) else None, labels=labels
    )


def _binarised(sets: Sequence[frozenset[str]], classes: list[str]) -> np.ndarray:
    return np.array([[c in s for c in classes] for s in sets], dtype=bool).reshape(-1, len(classes))


def _truth_and_guess(result: Any, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """Gold and predicted classes of each item, binarised over the typology."""
    classes = typology().ids
    records = result.records()
    gold = [_item(r.get("gold"), category=None).type_set() for r in records]
    predicted = [
        predicted_types(_item(r.get("predicted"), category=None), r.get("category"), mode)
        for r in records
    ]
    return _binarised(gold, classes), _binarised(predicted, classes)


def _macro_f1(tp: np.ndarray, *, wrong: np.ndarray) -> np.ndarray:
    """Macro-F1 from per-class true positives and errors (rows: resamples)."""
    denominator = 2 * tp + wrong
    # sklearn's zero_division=0: a class never given nor predicted scores 0
    f1 = np.divide(2 * tp, denominator, out=np.zeros(tp.shape), where=denominator > 0)
    return f1.mean(axis=-1)


def macro_f1_statistic(result: Any) -> ItemStatistic | str:
    """Macro-F1 of ``result`` as a function of its items' row numbers."""
    mode = result.summary.get("mode", "category")
    if mode not in MODES:
        return f"unknown mode {mode!r}"
    truth, guess = _truth_and_guess(result, mode)

    def macro_f1(rows: Sequence[int]) -> float:
        index = np.asarray(rows, dtype=int)
        t, p = truth[index], guess[index]
        tp = (t & p).sum(axis=0)
        wrong = (~t & p).sum(axis=0) + (t & ~p).sum(axis=0)
        return float(_macro_f1(tp, wrong=wrong))

    return ItemStatistic(list(range(len(truth))), macro_f1, f"macro-F1 ({mode} mode)")


def paired_units(result: Any) -> Units | str:
    """Each argument adds, per class, its true positive and its errors (false positive
    plus false negative); macro-F1 is made from their sums, so a resample or a swap of
    arguments gives the macro-F1 those arguments would give."""
    mode = result.summary.get("mode", "category")
    if mode not in MODES:
        return f"unknown mode {mode!r}"
    truth, guess = _truth_and_guess(result, mode)
    tp = (truth & guess).astype(float)
    wrong = (truth ^ guess).astype(float)
    k = truth.shape[1]

    def finish(sums: np.ndarray) -> np.ndarray:
        return _macro_f1(sums[:, :k], wrong=sums[:, k:])

    ids = tuple(str(r.get("id")) for r in result.records())
    return Units(
        ids=ids, statistic=AdditiveStatistic(np.hstack([tp, wrong]), finish), unit="arguments"
    )
