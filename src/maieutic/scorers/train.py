"""Training a scorer and measuring it by grouped cross-validation.

The model is a standardised logistic regression (multinomial when the labels have more
than two classes, binary otherwise) with fixed regularisation ``C``; the
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
from scipy import sparse
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from maieutic._version import __version__
from maieutic.errors import DataError
from maieutic.progress import progress
from maieutic.records.scorer import ScorerManifest
from maieutic.scorers.examples import Examples
from maieutic.scorers.features import WITH_NGRAMS, QuestionNgrams, with_ngrams
from maieutic.scorers.figures import binary_figures, three_class_kappa, top_k_rate
from maieutic.scorers.grouped_cv import grouped_folds, out_of_fold
from maieutic.scorers.model import (
    LearnedScorer,
    LinearModel,
    context_hash,
)

DEFAULT_C = 0.001
NGRAM_C = 0.3
"""``C`` for feature sets with n-grams: the n-gram block is left unstandardised (TF-IDF
values are already on one scale, and standardising rare terms inflates them: AUC 0.705
at best), so the regularisation sits on another scale (tuned by grouped CV on the
labelled development data the n-gram set was designed on: 0.1 → 0.3 → 1 gave AUC 0.72
/ 0.724 / 0.721)."""
NGRAM_DENSE_WEIGHT = 0.5
"""The standardised dense block is scaled by this over √(its width), so that its
total weight is comparable with one L2-normalised n-gram row (grouped CV: 0.3 / 0.5 /
1 / 3 gave AUC 0.720 / 0.724 / 0.723 / 0.704)."""
FOLDS = 5


def default_c(features_version: str) -> float:
    """The regularisation ``C`` a feature set is trained with unless one is given."""
    return NGRAM_C if features_version in WITH_NGRAMS else DEFAULT_C


def base_rate_threshold(scores: np.ndarray, *, target: np.ndarray) -> float:
    """The score above which the share of pairs equals the positive rate."""
    rate = float(np.mean(target))
    return float(np.quantile(scores, 1 - rate)) if 0 < rate < 1 else 0.5


def fit_linear(features: np.ndarray, labels: list[str], c: float, *, seed: int, weights=None):
    """A fitted scaler + logistic regression pipeline (``weights``: one per pair)."""
    pipeline = make_pipeline(
        StandardScaler(), LogisticRegression(C=c, max_iter=3000, random_state=seed)
    )
    return pipeline.fit(features, labels, logisticregression__sample_weight=weights)


def fit_with_ngrams(
    dense: np.ndarray,
    questions: list[str],
    *,
    labels: list[str],
    c: float,
    seed: int,
    weights: np.ndarray | None = None,
) -> tuple[LinearModel, QuestionNgrams]:
    """A logistic regression over the standardised, down-weighted dense block and the
    questions' n-grams (vocabulary learned from ``questions``), as one ``LinearModel``
    over ``np.hstack([dense, ngrams])``: the dense block's scale absorbs the weight and
    the n-gram block keeps mean 0 and scale 1. ``weights``: one per pair (None: equal)."""
    ngrams = QuestionNgrams.fit(questions)
    mean = dense.mean(axis=0)
    scale = dense.std(axis=0)
    scale = np.where(scale == 0, 1.0, scale) / (NGRAM_DENSE_WEIGHT / np.sqrt(dense.shape[1]))
    # sparse: the n-gram block is mostly zeros and can be tens of thousands wide
    z = sparse.hstack([sparse.csr_matrix((dense - mean) / scale), ngrams.transform(questions)])
    regression = LogisticRegression(C=c, max_iter=3000, random_state=seed)
    regression.fit(z.tocsr(), labels, sample_weight=weights)
    model = LinearModel(
        mean=np.concatenate([mean, np.zeros(len(ngrams))]),
        scale=np.concatenate([scale, np.ones(len(ngrams))]),
        coef=regression.coef_.astype(np.float64),
        intercept=regression.intercept_.astype(np.float64),
        classes=[str(k) for k in regression.classes_],
    )
    return model, ngrams


def _fit(
    dense: np.ndarray,
    questions: list[str],
    *,
    labels: list[str],
    ngrams: bool,
    c: float,
    seed: int,
    weights: np.ndarray | None = None,
) -> tuple[LinearModel, QuestionNgrams | None]:
    if ngrams:
        return fit_with_ngrams(dense, questions, labels=labels, c=c, seed=seed, weights=weights)
    return LinearModel.from_sklearn(fit_linear(dense, labels, c, seed=seed, weights=weights)), None


def fit_model(
    examples: Examples,
    features: np.ndarray,
    features_version: str,
    *,
    c: float,
    seed: int,
    weights: np.ndarray | None = None,
) -> tuple[LinearModel, QuestionNgrams | None]:
    """The model fitted on all of ``examples`` (``features``: their dense part), and the
    n-gram vocabulary when the feature set has one."""
    ngrams = features_version in WITH_NGRAMS
    return _fit(
        features,
        examples.questions,
        labels=examples.labels,
        ngrams=ngrams,
        c=c,
        seed=seed,
        weights=weights,
    )


def system_weights(examples: Examples, weight: float) -> np.ndarray | None:
    """Each pair's weight: ``weight`` for a system's labelled output, 1 for the rest
    (None when all are 1)."""
    from_systems = examples.from_systems
    if weight == 1.0 or not from_systems.any():
        return None
    return np.where(from_systems, weight, 1.0)


def threshold_rows(examples: Examples) -> np.ndarray:
    """The pairs whose positive rate the threshold accepts: the systems' labelled
    outputs when there are any (a judge of generated questions is set by them), else
    every pair."""
    from_systems = examples.from_systems
    return from_systems if from_systems.any() else np.ones(len(examples), dtype=bool)


@dataclass
class Trained:
    """The saved scorer and its cross-validation report."""

    scorer: LearnedScorer
    report: dict[str, Any]


def _check_training_side(examples: Examples, labels: np.ndarray, fold: int) -> None:
    """A fold whose training side lacks the positive class or the rest cannot learn: say
    so (the class occurs in too few texts for grouped cross-validation)."""
    positive = labels == examples.positive
    if positive.all() or not positive.any():
        missing = f"non-{examples.positive}" if positive.all() else examples.positive
        groups = {
            g
            for g, label in zip(examples.groups, examples.labels, strict=True)
            if (label == examples.positive) != positive.all()
        }
        raise DataError(
            f"fold {fold + 1} has no {missing} pair to learn from: {missing} pairs occur in "
            f"only {len(groups)} text(s), too few for {FOLDS}-fold grouped cross-validation"
        )


INNER_FOLDS = 3
"""Inner folds that set a fold's threshold on out-of-fold scores of its training side,
when the threshold follows the systems' outputs (in-sample scores of a model are
higher than on unseen texts: a threshold set on them accepts too much)."""


def _fitter(examples: Examples, features: np.ndarray, c, *, seed, ngrams, weights):
    """``fit(rows) -> predict(query rows)``, with ``predict.classes`` for the class."""
    labels = np.array(examples.labels)

    def fit(rows):
        questions = [examples.questions[i] for i in rows]
        w = None if weights is None else weights[rows]
        model, vocabulary = _fit(
            features[rows],
            questions,
            labels=list(labels[rows]),
            ngrams=ngrams,
            c=c,
            seed=seed,
            weights=w,
        )
        column = model.classes.index(examples.positive)

        def probabilities(query):
            texts = [examples.questions[i] for i in query]
            return model.probabilities(with_ngrams(features[query], texts, vocabulary))

        def predict(query):
            return probabilities(query)[:, column]

        predict.classes = lambda q: np.array(model.classes)[probabilities(q).argmax(axis=1)]
        return predict

    return fit


def _inner_threshold(examples: Examples, fit, rows: np.ndarray, *, seed: int) -> float:
    """The threshold accepting the positive rate of the systems' outputs among ``rows``,
    on inner out-of-fold scores."""
    inner = np.zeros(len(rows))
    groups = [examples.groups[i] for i in rows]
    for inner_train, inner_test in grouped_folds(groups, INNER_FOLDS, seed=seed):
        inner[inner_test] = fit(rows[inner_train])(rows[inner_test])
    chosen = threshold_rows(examples)[rows]
    return base_rate_threshold(inner[chosen], target=examples.target[rows][chosen])


def cross_validate(
    examples: Examples,
    features: np.ndarray,
    c: float,
    *,
    seed: int,
    ngrams: bool = False,
    weights: np.ndarray | None = None,
) -> dict[str, Any]:
    """Grouped CV figures (and the out-of-fold probabilities, for the final threshold).

    With ``ngrams`` each fold learns its n-gram vocabulary from its training side's
    questions only, beside the dense ``features``. When some pairs are systems'
    labelled outputs, the texts that have them are dealt evenly across the folds, each
    fold's threshold accepts the outputs' positive rate (on inner out-of-fold scores),
    and the figures on the outputs alone are reported too (``system_outputs``)."""
    labels = np.array(examples.labels)
    target = examples.target
    from_systems = examples.from_systems
    strata = {g: "systems" for g, s in zip(examples.groups, from_systems, strict=True) if s}
    fit = _fitter(examples, features, c, seed=seed, ngrams=ngrams, weights=weights)

    # The fold loop hands out rows of its feature matrix; passing row indices keeps the
    # three-class labels aligned with them (the model learns all classes).
    index = np.arange(len(labels)).reshape(-1, 1)

    def fit_rows(rows, _y):
        rows = rows[:, 0]
        _check_training_side(examples, labels[rows], len(fitted))
        predict_rows = fit(rows)

        def predict(query_rows):
            return predict_rows(query_rows[:, 0])

        predict.classes = predict_rows.classes
        predict.threshold = _inner_threshold(examples, fit, rows, seed=seed) if strata else None
        fitted.append(predict)
        update(len(fitted), FOLDS)
        return predict

    def choose_threshold(scores, *, target):
        chosen = fitted[-1].threshold
        return base_rate_threshold(scores, target=target) if chosen is None else chosen

    fitted: list = []
    with progress(f"cross-validating ({FOLDS} grouped folds)", FOLDS) as update:
        oof = out_of_fold(
            index,
            target=target,
            groups=examples.groups,
            fit=fit_rows,
            choose_threshold=choose_threshold,
            k=FOLDS,
            seed=seed,
            strata=strata or None,
        )
    return _cv_figures(examples, fitted, oof, with_outputs=bool(strata), seed=seed)


def _cv_figures(
    examples: Examples, fitted: list, oof, *, with_outputs: bool, seed: int
) -> dict[str, Any]:
    """The cross-validated figures, with the out-of-fold scores and decisions."""
    figures = binary_figures(
        examples.target,
        scores=oof.scores,
        decided=oof.decisions(),
        ordinal=np.array(examples.ordinal),
        groups=examples.groups,
        seed=seed,
    )
    if len(set(examples.labels)) > 2:
        figures["kappa_3class"] = _three_class(examples, fitted, oof, seed=seed)
    if with_outputs:
        figures["system_outputs"] = _system_figures(examples, oof, seed)
    figures["folds"] = FOLDS
    return {"figures": figures, "oof_scores": oof.scores, "oof_decisions": oof.decisions()}


def _three_class(examples: Examples, fitted: list, oof, *, seed: int) -> dict[str, Any]:
    """Three-class κ of each fold's class decisions on its test side."""
    predicted_class = np.empty(len(examples), dtype=object)
    for f, predict in enumerate(fitted):
        test = np.flatnonzero(oof.fold == f)
        predicted_class[test] = predict.classes(test)
    return three_class_kappa(
        examples.labels, predicted=list(predicted_class), groups=examples.groups, seed=seed
    )


def _system_figures(examples: Examples, oof, seed: int) -> dict[str, Any]:
    """The out-of-fold figures on the systems' labelled outputs alone, and the positive
    rate of the 3 each text's scores rank first (a reranker's choice)."""
    rows = np.flatnonzero(examples.from_systems)
    groups = [examples.groups[i] for i in rows]
    target = examples.target[rows]
    figures = binary_figures(
        target,
        scores=oof.scores[rows],
        decided=oof.decisions()[rows],
        ordinal=np.array(examples.ordinal)[rows],
        groups=groups,
        seed=seed,
    )
    figures["top3_positive_rate"] = top_k_rate(
        target, scores=oof.scores[rows], groups=groups, k=3, seed=seed
    )
    return figures


def _model_record(c: float, ngrams: QuestionNgrams | None, recipe: dict[str, Any]) -> dict:
    """The manifest's account of the model: family, C, scaling, and the recipe's rest."""
    return {
        "family": "logistic-regression",
        "C": c,
        "standardised": True if ngrams is None else "dense block",
        **({"ngrams": len(ngrams), "dense_weight": NGRAM_DENSE_WEIGHT} if ngrams else {}),
        **{k: v for k, v in recipe.items() if k != "c"},
    }


def train(
    examples: Examples,
    features: np.ndarray,
    *,
    task: str,
    data_bytes: bytes,
    data_name: str,
    encoder_identity: str,
    encoder_model: str = "",
    c: float | None = None,
    seed: int = 0,
    features_version: str = "pair-v2",
    source: dict[str, Any] | None = None,
    recipe: dict[str, Any] | None = None,
) -> Trained:
    """Cross-validate, then fit on all the data and build the saved scorer.

    ``source`` says what the pairs are (e.g. ``{"examples": "templates", ...}``); it is
    recorded with the training data and so enters the scorer's identity. ``recipe``
    (the example source's): ``c`` when none is given, ``system_weight`` for pairs from
    systems' labelled outputs, ``binary`` to learn the positive class against the
    rest."""
    recipe = dict(recipe or {})
    if c is None:
        c = recipe.get("c", default_c(features_version))
    if recipe.get("binary"):
        examples = examples.binary()
    weights = system_weights(examples, recipe.get("system_weight", 1.0))
    with_ngrams = features_version in WITH_NGRAMS
    cv = cross_validate(examples, features, c, seed=seed, ngrams=with_ngrams, weights=weights)
    model, ngrams = fit_model(examples, features, features_version, c=c, seed=seed, weights=weights)
    chosen = threshold_rows(examples)
    threshold = base_rate_threshold(cv["oof_scores"][chosen], target=examples.target[chosen])
    whose = "the data's" if chosen.all() else "the labelled system outputs'"
    manifest = ScorerManifest(
        task=task,
        positive=examples.positive,
        classes=sorted(set(examples.labels)),
        threshold=threshold,
        threshold_rule=f"accept {whose} positive rate (out-of-fold probabilities)",
        model=_model_record(c, ngrams, recipe),
        features={
            "version": features_version,
            "encoder": encoder_identity,
            "encoder_model": encoder_model,
        },
        training={
            "data": data_name,
            "data_sha256": hashlib.sha256(data_bytes).hexdigest(),
            "n_pairs": len(examples),
            "n_groups": len(set(examples.groups)),
            "seed": seed,
            **(source or {}),
        },
        trained_contexts=sorted({context_hash(c) for c in examples.contexts}),
        cv=cv["figures"],
        maieutic_version=__version__,
    ).to_json()
    return Trained(LearnedScorer(model, manifest, ngrams), cv["figures"])
