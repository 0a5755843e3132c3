"""The mean-shift analysis of "AURA-QG" section 6.3: the four metrics averaged over
question sets at each answerability threshold, and the threshold with the best
trade-off. As the threshold rises, answerability falls, non-redundancy climbs and,
past some point, coverage drops sharply; the paper stops just before that drop. Here
that is made a rule: the most selective threshold whose mean coverage stays within
``COVERAGE_TOLERANCE`` of the coverage at the loosest threshold. (The highest mean of
the four means is no use: answerability falls faster than non-redundancy rises, so it
always picks the loosest threshold.)"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from maieutic.tasks.aura.data import Document
from maieutic.tasks.aura.evaluate import METRICS, AuraEvaluator

COVERAGE_TOLERANCE = 0.01


def mean_shift(
    evaluator: AuraEvaluator,
    sets: Sequence[tuple[Document, list[str]]],
    thresholds: Sequence[float],
) -> dict:
    """Per threshold, each metric's mean over the (document, questions) pairs; and the
    chosen threshold."""
    rows = []
    original = evaluator.threshold
    try:
        for value in thresholds:
            evaluator.threshold = replace(original, value=value)
            per_metric: dict[str, list[float]] = {m: [] for m in METRICS}
            for document, questions in sets:
                metrics, _ = evaluator.score_set(document, questions)
                for m in METRICS:
                    per_metric[m].append(metrics[m])
            means = {m: float(np.mean(v)) for m, v in per_metric.items()}
            rows.append({"threshold": value, **means, "mean": float(np.mean(list(means.values())))})
    finally:
        evaluator.threshold = original
    loosest = min(rows, key=lambda r: r["threshold"])["coverage"]
    keeping = [r for r in rows if r["coverage"] >= (1 - COVERAGE_TOLERANCE) * loosest]
    chosen = max(keeping, key=lambda r: r["threshold"])["threshold"]
    return {
        "rows": rows,
        "chosen": chosen,
        "n_sets": len(sets),
        "rule": f"coverage within {COVERAGE_TOLERANCE:.0%} of the loosest threshold's",
    }
