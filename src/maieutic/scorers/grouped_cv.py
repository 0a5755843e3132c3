"""Grouped cross-validation: no group (an intervention, a passage) is ever on both the
training and the test side of a fold, so every figure is on unseen texts.

Folds are made by shuffling the distinct groups with the seed and dealing them round
robin, so the split is reproducible and balanced in number of groups (scikit-learn's
``GroupKFold`` balances items and only shuffles from version 1.6).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np


class ThresholdChooser(Protocol):
    """Chooses a fold's threshold from its training side's scores and targets."""

    def __call__(self, scores: np.ndarray, *, target: np.ndarray) -> float: ...


def grouped_folds(
    groups: Sequence[str], k: int, *, seed: int, strata: Mapping[str, str] | None = None
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``k`` (train indices, test indices) pairs; each group is tested exactly once.

    With ``strata`` (group -> stratum) the shuffled groups are dealt stratum by stratum,
    so each fold holds its share of every stratum (e.g. the few texts whose system
    outputs people labelled); without it the split is as it always was."""
    distinct = sorted(set(groups))
    if len(distinct) < k:
        raise ValueError(f"{len(distinct)} groups cannot make {k} folds")
    order = np.random.default_rng(seed).permutation(len(distinct))
    if strata:  # a stable sort keeps the shuffled order within each stratum
        order = sorted(order, key=lambda g: strata.get(distinct[g], ""))
    fold_of = {distinct[g]: i % k for i, g in enumerate(order)}
    assignment = np.array([fold_of[g] for g in groups])
    return [(np.flatnonzero(assignment != f), np.flatnonzero(assignment == f)) for f in range(k)]


@dataclass
class OutOfFold:
    """Predictions made for every item by a model that never saw its group."""

    scores: np.ndarray
    fold: np.ndarray
    thresholds: list[float]
    """Per fold: the threshold chosen on that fold's training side."""

    def decisions(self) -> np.ndarray:
        """Each item's binary decision at its own fold's threshold."""
        return np.array(
            [s >= self.thresholds[f] for s, f in zip(self.scores, self.fold, strict=True)]
        )


def out_of_fold(
    features: np.ndarray,
    *,
    target: np.ndarray,
    groups: Sequence[str],
    fit: Callable[[np.ndarray, np.ndarray], Callable[[np.ndarray], np.ndarray]],
    choose_threshold: ThresholdChooser,
    k: int = 5,
    seed: int = 0,
    strata: Mapping[str, str] | None = None,
) -> OutOfFold:
    """Fit on each fold's training side, predict its test side; the threshold of each
    fold is chosen from the training side only (its targets and in-sample scores)."""
    scores = np.zeros(len(target))
    fold = np.zeros(len(target), dtype=int)
    thresholds = []
    for f, (train, test) in enumerate(grouped_folds(groups, k, seed=seed, strata=strata)):
        predict = fit(features[train], target[train])
        thresholds.append(choose_threshold(predict(features[train]), target=target[train]))
        scores[test] = predict(features[test])
        fold[test] = f
    return OutOfFold(scores, fold, thresholds)
