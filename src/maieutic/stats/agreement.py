"""Chance-corrected and raw agreement for categorical ratings.

Two-rater functions take two equal-length sequences of labels (one per item; ``None``
marks a missing rating and drops the item). Multi-rater functions take one sequence
of labels per item (raters may differ in number per item).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

import numpy as np

from maieutic.stats._errors import UndefinedStatistic

Label = Hashable


def _pairs(a: Sequence[Label | None], b: Sequence[Label | None]) -> list[tuple[Label, Label]]:
    if len(a) != len(b):
        raise ValueError(f"rater sequences differ in length: {len(a)} vs {len(b)}")
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if x is not None and y is not None]
    if not pairs:
        raise UndefinedStatistic("no item was rated by both raters")
    return pairs


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def ordered_categories(values) -> list[Label]:
    """The distinct values in their natural order: by value when all are numbers (so
    weighted kappa on 0–19 totals sees 2 before 10), otherwise by their text."""
    distinct = set(values)
    if distinct and all(_is_number(v) for v in distinct):
        return sorted(distinct)
    return sorted(distinct, key=str)


def observed_agreement(a: Sequence[Label | None], b: Sequence[Label | None]) -> float:
    """Share of items (rated by both) on which the two raters agree."""
    pairs = _pairs(a, b)
    return sum(x == y for x, y in pairs) / len(pairs)


def cohen_kappa(
    a: Sequence[Label | None],
    b: Sequence[Label | None],
    *,
    labels: Sequence[Label] | None = None,
    weights: str | None = None,
) -> float:
    """Cohen's kappa for two raters (nominal; ``weights="linear"|"quadratic"`` for ordered
    labels, in the order of ``labels``, or by value when every label is a number).

    Undefined (raises) when chance agreement is 1, i.e. both raters used one and the
    same category for every item.
    """
    pairs = _pairs(a, b)
    cats = list(labels) if labels is not None else ordered_categories(v for p in pairs for v in p)
    index = {c: i for i, c in enumerate(cats)}
    k = len(cats)
    matrix = np.zeros((k, k))
    for x, y in pairs:
        if x not in index or y not in index:
            raise ValueError(f"label {x if x not in index else y!r} not in labels")
        matrix[index[x], index[y]] += 1
    matrix /= matrix.sum()
    expected = np.outer(matrix.sum(axis=1), matrix.sum(axis=0))
    if weights is None:
        w = 1 - np.eye(k)
    elif weights in ("linear", "quadratic"):
        dist = np.abs(np.subtract.outer(np.arange(k), np.arange(k)))
        w = dist if weights == "linear" else dist**2
    else:
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', not {weights!r}")
    denominator = float((w * expected).sum())
    if denominator == 0:
        raise UndefinedStatistic(
            "kappa is undefined: both raters gave every item the same single category"
        )
    return 1 - float((w * matrix).sum()) / denominator


def pabak(
    a: Sequence[Label | None], b: Sequence[Label | None], *, n_categories: int | None = None
) -> float:
    """Prevalence- and bias-adjusted kappa: (k·p_o − 1)/(k − 1), k categories (2 by
    default, the binary case 2·p_o − 1 of Byrt et al.)."""
    k = n_categories or 2
    if k < 2:
        raise ValueError("PABAK needs at least 2 categories")
    return (k * observed_agreement(a, b) - 1) / (k - 1)


def _counts(items: Sequence[Sequence[Label | None]]) -> tuple[list[Counter], list[Label]]:
    rows = [Counter(v for v in item if v is not None) for item in items]
    rows = [r for r in rows if sum(r.values()) >= 2]
    if not rows:
        raise UndefinedStatistic("no item has two or more ratings")
    cats = ordered_categories(c for r in rows for c in r)
    return rows, cats


def three_rater_agreement(items: Sequence[Sequence[Label]]) -> float:
    """Observed agreement of three raters as some annotation studies report it: 1 when
    all three agree, 0.5 when exactly two do, 0 when all differ; averaged."""
    if not items:
        raise UndefinedStatistic("no items")
    scores = []
    for item in items:
        if len(item) != 3:
            raise ValueError(f"expected 3 ratings per item, got {len(item)}")
        top = max(Counter(item).values())
        scores.append({3: 1.0, 2: 0.5, 1: 0.0}[top])
    return float(np.mean(scores))


def fleiss_kappa(items: Sequence[Sequence[Label | None]]) -> float:
    """Fleiss' kappa for any number of raters per item (nominal).

    Items with fewer than two ratings are ignored. Undefined when every rating is the
    same category (chance agreement 1).
    """
    rows, cats = _counts(items)
    n_i = np.array([sum(r.values()) for r in rows], dtype=float)
    table = np.array([[r.get(c, 0) for c in cats] for r in rows], dtype=float)
    p_i = ((table * (table - 1)).sum(axis=1)) / (n_i * (n_i - 1))
    p_bar = p_i.mean()
    p_j = table.sum(axis=0) / table.sum()
    p_e = float((p_j**2).sum())
    if p_e == 1:
        raise UndefinedStatistic("Fleiss' kappa is undefined: a single category was used")
    return float((p_bar - p_e) / (1 - p_e))


def gwet_ac1(
    items: Sequence[Sequence[Label | None]], *, categories: Sequence[Label] | None = None
) -> float:
    """Gwet's AC1 for any number of raters per item (nominal).

    Chance agreement is 1/(K−1)·Σ π_k(1−π_k) with K the number of categories
    (``categories`` if given, else those observed). Undefined when K < 2.
    """
    rows, observed = _counts(items)
    cats = list(categories) if categories is not None else observed
    k = len(cats)
    if k < 2:
        raise UndefinedStatistic("AC1 is undefined with fewer than two categories")
    n_i = np.array([sum(r.values()) for r in rows], dtype=float)
    table = np.array([[r.get(c, 0) for c in cats] for r in rows], dtype=float)
    p_a = float(((table * (table - 1)).sum(axis=1) / (n_i * (n_i - 1))).mean())
    pi = (table / n_i[:, None]).mean(axis=0)
    p_e = float((pi * (1 - pi)).sum() / (k - 1))
    return (p_a - p_e) / (1 - p_e)
