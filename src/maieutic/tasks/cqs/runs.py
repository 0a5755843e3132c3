"""Repeated runs: group submissions named ``NAME-runK`` and summarise them as mean ± std."""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from maieutic.tasks.cqs.evaluate import CQEvaluation

_RUN_SUFFIX = re.compile(r"-run(\d+)$")
FIGURES = ("overall", "useful_rate", "nae_rate")


def group_runs(results: Sequence[CQEvaluation]) -> dict[str, list[CQEvaluation]]:
    """Submissions whose names differ only by a ``-runK`` suffix, by base name (≥ 2 runs)."""
    groups: dict[str, list[CQEvaluation]] = {}
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


def summarize_runs(runs: Sequence[CQEvaluation]) -> dict[str, dict[str, float]]:
    """Mean and std of each headline figure across runs."""
    out = {}
    for figure in FIGURES:
        values = [r.summary[figure] for r in runs if r.summary[figure] is not None]
        if values:
            mean, std = mean_std(values)
            out[figure] = {"mean": mean, "std": std, "n": len(values)}
    return out
