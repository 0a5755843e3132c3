"""The figures a learned scorer is judged by, on out-of-fold predictions: Cohen's kappa
of the binary decision (the positive class vs the rest) and, where the labels have
three classes, of the three-class decision; ROC AUC of the probability; Spearman
between the probability and the ordinal label or rating. Each with a percentile
bootstrap interval that resamples groups (the texts questions are about), not items, since
items of one group are not independent."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.stats import spearmanr
from sklearn.metrics import roc_auc_score

from maieutic.stats import UndefinedStatistic, bootstrap_ci, cohen_kappa


def _kappa(truth, decided) -> float:
    return cohen_kappa(list(truth), list(decided))


def _auc(truth, scores) -> float:
    if len(set(truth)) < 2:
        raise UndefinedStatistic("one class only")
    return float(roc_auc_score(truth, scores))


def _rho(x, y) -> float:
    if len(set(x)) < 2 or len(set(y)) < 2:
        raise UndefinedStatistic("constant input")
    return float(spearmanr(x, y).statistic)


def _grouped(
    statistic, groups: Sequence[str], columns: tuple[np.ndarray, ...], *, seed: int
) -> dict:
    """The statistic of ``columns`` with a bootstrap interval over groups."""
    by_group: dict[str, list[int]] = {}
    for i, g in enumerate(groups):
        by_group.setdefault(g, []).append(i)
    blocks = list(by_group.values())

    def on_blocks(chosen):
        idx = [i for block in chosen for i in block]
        return statistic(*(c[idx] for c in columns))

    try:
        interval = bootstrap_ci(on_blocks, blocks, n_resamples=1000, seed=seed)
    except UndefinedStatistic as exc:
        return {"value": None, "low": None, "high": None, "undefined": str(exc)}
    return {"value": interval.estimate, "low": interval.low, "high": interval.high}


def binary_figures(
    truth: np.ndarray,
    *,
    scores: np.ndarray,
    decided: np.ndarray,
    ordinal: np.ndarray,
    groups: Sequence[str],
    seed: int = 0,
) -> dict:
    """κ, AUC and Spearman (each with a group-bootstrap interval) and counts."""
    return {
        "n": len(truth),
        "n_groups": len(set(groups)),
        "positive_rate": float(np.mean(truth)),
        "kappa": _grouped(_kappa, groups, (truth.astype(int), decided.astype(int)), seed=seed),
        "auc": _grouped(_auc, groups, (truth.astype(int), scores), seed=seed),
        "spearman": _grouped(_rho, groups, (ordinal, scores), seed=seed),
    }


def three_class_kappa(
    truth: Sequence[str], *, predicted: Sequence[str], groups, seed: int = 0
) -> dict:
    """Three-class κ with a group-bootstrap interval."""
    return _grouped(_kappa, groups, (np.asarray(truth), np.asarray(predicted)), seed=seed)


def top_k_rate(
    truth: np.ndarray, *, scores: np.ndarray, groups: Sequence[str], k: int, seed: int = 0
) -> dict:
    """The positive rate of the ``k`` highest-scored items of each group (a reranker's
    choice), with a bootstrap interval over groups."""
    by_group: dict[str, list[int]] = {}
    for i, g in enumerate(groups):
        by_group.setdefault(g, []).append(i)
    picks = [
        [bool(truth[i]) for i in sorted(rows, key=lambda i: -scores[i])[:k]]
        for rows in by_group.values()
    ]

    def rate(chosen) -> float:
        return float(np.mean([x for block in chosen for x in block]))

    interval = bootstrap_ci(rate, picks, n_resamples=1000, seed=seed)
    return {"value": interval.estimate, "low": interval.low, "high": interval.high, "k": k}
