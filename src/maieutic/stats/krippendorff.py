"""Krippendorff's alpha for nominal, ordinal and interval data, with missing values.

Computed from the coincidence matrix (Krippendorff, "Computing Krippendorff's
Alpha-Reliability"): alpha = 1 − D_o/D_e. Units with fewer than two values are not
pairable and are dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from maieutic.stats._errors import UndefinedStatistic

LEVELS = ("nominal", "ordinal", "interval")


def krippendorff_alpha(data: Sequence[Sequence[float | None]], level: str = "nominal") -> float:
    """Alpha for reliability data shaped (raters, units); ``None`` or NaN is missing.

    Raises ``UndefinedStatistic`` when no unit is pairable or all pairable values are
    equal (no expected disagreement).
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    matrix = np.array(
        [[np.nan if v is None else float(v) for v in row] for row in data], dtype=float
    )
    if matrix.ndim != 2:
        raise ValueError("data must be a (raters, units) table")
    values = np.unique(matrix[~np.isnan(matrix)])
    if values.size == 0:
        raise UndefinedStatistic("alpha is undefined: every value is missing")
    index = {v: i for i, v in enumerate(values)}
    k = values.size
    coincidence = np.zeros((k, k))
    for unit in matrix.T:
        present = unit[~np.isnan(unit)]
        m = present.size
        if m < 2:
            continue
        counts = np.zeros(k)
        for v in present:
            counts[index[v]] += 1
        pairs = np.outer(counts, counts) - np.diag(counts)
        coincidence += pairs / (m - 1)
    n_c = coincidence.sum(axis=1)
    n = n_c.sum()
    if n == 0:
        raise UndefinedStatistic("alpha is undefined: no unit has two or more values")
    if level == "nominal":
        delta = 1.0 - np.eye(k)
    elif level == "interval":
        delta = np.subtract.outer(values, values) ** 2
    else:  # ordinal: squared sum of the marginals between the two ranks
        cum = np.cumsum(n_c)
        delta = np.zeros((k, k))
        for c in range(k):
            for j in range(k):
                lo, hi = min(c, j), max(c, j)
                between = cum[hi] - (cum[lo - 1] if lo > 0 else 0)
                delta[c, j] = (between - (n_c[c] + n_c[j]) / 2) ** 2
    observed = (coincidence * delta).sum()
    expected = (np.outer(n_c, n_c) * delta).sum() / (n - 1)
    if expected == 0:
        raise UndefinedStatistic("alpha is undefined: all pairable values are equal")
    return float(1 - observed / expected)
