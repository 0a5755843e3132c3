"""Cohen's kappa with a percentile bootstrap interval over groups.

Items of one group (the questions about one intervention) are not independent: a
resample draws whole groups with replacement, as ``scorers.figures`` does for a
learned scorer's figures. Written for kappa alone, on confusion matrices: each group's
matrix is counted once, and a resample's matrix is the draw counts times those
matrices, so thousands of resamples of thousands of items cost milliseconds (the
generic ``bootstrap_ci`` recounts every item of every resample, seconds here).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from maieutic.stats._errors import UndefinedStatistic
from maieutic.stats.agreement import cohen_kappa, ordered_categories
from maieutic.stats.bootstrap import Interval, percentile_interval

RESAMPLES = 1000
"""Resamples of an interval over groups (as ``scorers.figures`` takes)."""
SEED = 0
"""The resamples' seed (as ``scorers.figures`` takes)."""


def _kappas(matrices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kappa of each ``(k, k)`` count matrix of ``matrices`` (``(r, k, k)``), and
    which are defined (chance agreement below 1)."""
    total = matrices.sum(axis=(1, 2))
    observed = np.trace(matrices, axis1=1, axis2=2) / total
    expected = np.einsum("ri,ri->r", matrices.sum(axis=2), matrices.sum(axis=1)) / total**2
    defined = expected < 1 - 1e-12
    kappas = np.where(defined, (observed - expected) / np.where(defined, 1 - expected, 1), 0.0)
    return kappas, defined


def grouped_kappa_interval(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    *,
    groups: Sequence[Hashable],
    n_resamples: int = RESAMPLES,
    confidence: float = 0.95,
    seed: int = SEED,
) -> Interval:
    """Cohen's kappa of raters ``a`` and ``b`` (nominal; ``None`` marks a missing
    rating and drops the item) with a percentile interval from resampling ``groups``
    (one per item) with replacement.

    The estimate is ``cohen_kappa(a, b)``; resamples on which kappa is undefined (one
    category drawn for both raters) are skipped and counted, and more than half of
    them undefined raises ``UndefinedStatistic``, as ``bootstrap_ci`` does."""
    if not len(a) == len(b) == len(groups):
        raise ValueError(f"lengths differ: {len(a)}, {len(b)}, {len(groups)}")
    rated = [(x, y, g) for x, y, g in zip(a, b, groups, strict=True) if None not in (x, y)]
    a, b, groups = [x for x, _, _ in rated], [y for _, y, _ in rated], [g for *_, g in rated]
    estimate = cohen_kappa(a, b)  # as cohen_kappa: None drops an item; raises if undefined
    categories = {c: i for i, c in enumerate(ordered_categories([*a, *b]))}
    names = {g: i for i, g in enumerate(dict.fromkeys(groups))}
    k, n_groups = len(categories), len(names)
    per_group = np.zeros((n_groups, k * k))
    for x, y, g in zip(a, b, groups, strict=True):
        per_group[names[g], categories[x] * k + categories[y]] += 1
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, n_groups, size=(n_resamples, n_groups))
    counts = np.zeros((n_resamples, n_groups))
    np.add.at(counts, (np.arange(n_resamples)[:, None], draws), 1)
    kappas, defined = _kappas((counts @ per_group).reshape(n_resamples, k, k))
    undefined = int((~defined).sum())
    if undefined > n_resamples / 2:
        raise UndefinedStatistic(f"kappa undefined on {undefined} of {n_resamples} resamples")
    return percentile_interval(
        estimate, kappas[defined], confidence=confidence, n_undefined=undefined
    )
