"""Training a scorer and measuring it by grouped cross-validation.

The model is a standardised logistic regression (multinomial over the three labels of
critical questions, binary for answerability) with fixed regularisation ``C``; the
score is the probability of the positive class. Its decision threshold is chosen so
that the share of pairs it accepts equals the positive rate of the data it learns from
(inside each fold, from that fold's training side; for the saved scorer, from the
out-of-fold probabilities of all the data) — a rule that needs no tuning set and does
not chase kappa on the test side.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from maieutic import __version__
from maieutic.progress import progress
from maieutic.scorers.examples import Examples
from maieutic.scorers.figures import binary_figures, three_class_kappa
from maieutic.scorers.grouped_cv import out_of_fold
from maieutic.scorers.model import (
    FORMAT,
    LearnedScorer,
    LinearModel,
    context_hash,
)

DEFAULT_C = 0.001
FOLDS = 5


def base_rate_threshold(scores: np.ndarray, target: np.ndarray) -> float:
    """The score above which the share of pairs equals the positive rate."""
    rate = float(np.mean(target))
    return float(np.quantile(scores, 1 - rate)) if 0 < rate < 1 else 0.5


def fit_linear(features: np.ndarray, labels: list[str], c: float, seed: int):
    """A fitted scaler + logistic regression pipeline."""
    pipeline = make_pipeline(
        StandardScaler(), LogisticRegression(C=c, max_iter=3000, random_state=seed)
    )
    return pipeline.fit(features, labels)


@dataclass
class Trained:
    """The saved scorer and its cross-validation report."""

    scorer: LearnedScorer
    report: dict[str, Any]


def _positive_probability(pipeline, positive: str):
    index = list(pipeline.classes_).index(positive)
    return lambda x: pipeline.predict_proba(x)[:, index]


def cross_validate(examples: Examples, features: np.ndarray, c: float, seed: int) -> dict[str, Any]:
    """Grouped CV figures (and the out-of-fold probabilities, for the final threshold)."""
    labels = np.array(examples.labels)
    target = examples.target
    predicted_class = np.empty(len(labels), dtype=object)

    # The fold loop hands out rows of its feature matrix; passing row indices keeps the
    # three-class labels aligned with them (the model learns all classes).
    index = np.arange(len(labels)).reshape(-1, 1)

    def fit_rows(rows, _y):
        rows = rows[:, 0]
        pipeline = fit_linear(features[rows], list(labels[rows]), c, seed)
        probability = _positive_probability(pipeline, examples.positive)

        def predict(query_rows):
            return probability(features[query_rows[:, 0]])

        predict.classes = lambda query: pipeline.predict(features[query])
        fitted.append(predict)
        update(len(fitted), FOLDS)
        return predict

    fitted: list = []
    with progress(f"cross-validating ({FOLDS} grouped folds)", FOLDS) as update:
        oof = out_of_fold(
            index, target, examples.groups, fit_rows, base_rate_threshold, FOLDS, seed
        )
    for f, predict in enumerate(fitted):  # three-class decisions, on each fold's test side
        test = np.flatnonzero(oof.fold == f)
        predicted_class[test] = predict.classes(test)
    figures = binary_figures(
        target, oof.scores, oof.decisions(), np.array(examples.ordinal), examples.groups, seed
    )
    if len(set(examples.labels)) > 2:
        figures["kappa_3class"] = three_class_kappa(
            examples.labels, list(predicted_class), examples.groups, seed
        )
    figures["folds"] = FOLDS
    return {"figures": figures, "oof_scores": oof.scores}


def train(
    examples: Examples,
    features: np.ndarray,
    *,
    task: str,
    data_bytes: bytes,
    data_name: str,
    encoder_identity: str,
    encoder_model: str = "",
    c: float = DEFAULT_C,
    seed: int = 0,
    features_version: str = "pair-v2",
    source: dict[str, Any] | None = None,
) -> Trained:
    """Cross-validate, then fit on all the data and build the saved scorer.

    ``source`` says what the pairs are (e.g. ``{"examples": "templates", ...}``); it is
    recorded with the training data and so enters the scorer's identity."""
    cv = cross_validate(examples, features, c, seed)
    pipeline = fit_linear(features, examples.labels, c, seed)
    threshold = base_rate_threshold(cv["oof_scores"], examples.target)
    manifest = {
        "format": FORMAT,
        "task": task,
        "positive": examples.positive,
        "classes": sorted(set(examples.labels)),
        "threshold": threshold,
        "threshold_rule": "accept the data's positive rate (out-of-fold probabilities)",
        "model": {"family": "logistic-regression", "C": c, "standardised": True},
        "features": {
            "version": features_version,
            "encoder": encoder_identity,
            "encoder_model": encoder_model,
        },
        "training": {
            "data": data_name,
            "data_sha256": hashlib.sha256(data_bytes).hexdigest(),
            "n_pairs": len(examples),
            "n_groups": len(set(examples.groups)),
            "seed": seed,
            **(source or {}),
        },
        "trained_contexts": sorted({context_hash(c) for c in examples.contexts}),
        "cv": cv["figures"],
        "maieutic_version": __version__,
    }
    return Trained(LearnedScorer(LinearModel.from_sklearn(pipeline), manifest), cv["figures"])
