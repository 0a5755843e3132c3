"""Repeated runs: results of submissions named ``NAME-runK`` summarised as mean ± std.

Any task's results can be grouped: the headline ``score`` is always summarised, plus
whichever summary figures the caller names (rates, counts).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from maieutic.evaluate.result import EvalResult

_RUN_SUFFIX = re.compile(r"-run(\d+)$")


def group_runs(results: Sequence[EvalResult]) -> dict[str, list[EvalResult]]:
    """Results whose names differ only by a ``-runK`` suffix, by base name (≥ 2 runs)."""
    groups: dict[str, list[EvalResult]] = {}
    for result in results:
        match = _RUN_SUFFIX.search(result.submission)
        if match:
            groups.setdefault(result.submission[: match.start()], []).append(result)
    return {name: runs for name, runs in groups.items() if len(runs) >= 2}


def mean_std(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (n − 1); std is 0.0 for a single value."""
    if not values:
        raise ValueError("no values")
    std = statistics.stdev(values) if len(values) > 1 else 0.0
    return statistics.fmean(values), std


def summarize_runs(
    runs: Sequence[EvalResult], figures: Sequence[str] = ()
) -> dict[str, dict[str, float]]:
    """Mean, std and count of the score and of each named summary figure across runs
    (runs where a figure is undefined are left out of that figure)."""
    out = {}
    for figure in ("score", *figures):
        values = [
            v
            for r in runs
            if (v := r.score if figure == "score" else r.summary.get(figure)) is not None
        ]
        if values:
            mean, std = mean_std(values)
            out[figure] = {"mean": mean, "std": std, "n": len(values)}
    return out
