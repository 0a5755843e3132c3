"""A saved learned scorer: a directory with ``manifest.json`` and ``model.npz``.

The model is a standardised logistic regression over ``maieutic.scorers.features``;
its parameters (scaler mean and scale, coefficients, intercepts, classes) are stored as
plain arrays — no pickle, so loading a scorer never runs code. The manifest records
the task, the target, the classes, the decision threshold, the encoder, the feature
version, the training data's hash and the hashes of its contexts (to warn when a
scored file was in the training data), the grouped cross-validation figures, the seed
and the maieutic version; ``signature_fields`` puts the identity into every score's
signature.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from maieutic.errors import DataError
from maieutic.scorers.features import (
    FEATURE_SETS,
    WITH_NGRAMS,
    QuestionNgrams,
    dense_version,
    pair_features,
    with_ngrams,
)

MANIFEST = "manifest.json"
WEIGHTS = "model.npz"
FORMAT = "maieutic.scorer/1"
SCORE_ROWS = 512
"""Rows scored at once with a wide n-gram block."""


def context_hash(text: str) -> str:
    """A short hash of a context (whitespace-normalised)."""
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()[:12]


@dataclass
class LinearModel:
    """Standardisation then a (multinomial) logistic regression."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray
    classes: list[str]

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """Class probabilities, one row per pair (columns in ``classes`` order)."""
        z = (features - self.mean) / self.scale
        logits = z @ self.coef.T + self.intercept
        if logits.shape[1] == 1:  # binary: one logit for classes[1]
            p = 1 / (1 + np.exp(-logits[:, 0]))
            return np.column_stack([1 - p, p])
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True)

    @classmethod
    def from_sklearn(cls, pipeline) -> LinearModel:
        """From a fitted ``make_pipeline(StandardScaler(), LogisticRegression())``."""
        scaler, regression = pipeline[0], pipeline[-1]
        return cls(
            scaler.mean_.astype(np.float64),
            np.where(scaler.scale_ == 0, 1.0, scaler.scale_).astype(np.float64),
            regression.coef_.astype(np.float64),
            regression.intercept_.astype(np.float64),
            [str(c) for c in regression.classes_],
        )


@dataclass
class LearnedScorer:
    """A trained scorer: its model, what it predicts, and its manifest."""

    model: LinearModel
    manifest: dict[str, Any] = field(default_factory=dict)
    ngrams: QuestionNgrams | None = None
    """The learned n-gram vocabulary, for feature sets that have one."""

    @property
    def positive(self) -> str:
        """The class whose probability is the score (e.g. ``Useful``)."""
        return self.manifest["positive"]

    @property
    def threshold(self) -> float:
        """The stored decision threshold on the probability."""
        return float(self.manifest["threshold"])

    def probability(self, features: np.ndarray) -> np.ndarray:
        """P(positive) per pair."""
        return self.model.probabilities(features)[:, self.model.classes.index(self.positive)]

    def score(self, encoder, contexts, questions, schemes=None, store=None) -> np.ndarray:
        """P(positive) of each (context, question) pair."""
        version = dense_version(self.manifest["features"]["version"])
        dense = pair_features(encoder, contexts, questions, schemes, store, version)
        if self.ngrams is None:
            return self.probability(dense)
        # The n-gram block can be tens of thousands of columns wide: build the full rows
        # a slice at a time (the same features, in bounded memory).
        out = np.empty(len(questions))
        for start in range(0, len(questions), SCORE_ROWS):
            rows = slice(start, start + SCORE_ROWS)
            out[rows] = self.probability(with_ngrams(dense[rows], questions[rows], self.ngrams))
        return out

    def seen(self, contexts) -> int:
        """How many of ``contexts`` were in the training data."""
        trained = set(self.manifest.get("trained_contexts", []))
        return sum(context_hash(c) in trained for c in contexts)

    def identity(self) -> str:
        """A short hash of the manifest's identity and the weights."""
        digest = hashlib.sha256(
            json.dumps(self.manifest.get("training", {}), sort_keys=True).encode()
        )
        arrays = [self.model.mean, self.model.coef, self.model.intercept]
        if self.ngrams is not None:
            arrays.append(self.ngrams.idf)
            digest.update("\n".join(self.ngrams.terms).encode())
        for array in arrays:
            digest.update(np.ascontiguousarray(array).tobytes())
        return digest.hexdigest()[:10]

    def signature_fields(self) -> dict[str, Any]:
        """What enters the signature of every score this scorer produces."""
        return {
            "scorer": self.identity(),
            "scorer_task": self.manifest["task"],
            "scorer_data": self.manifest["training"]["data_sha256"][:12],
            "threshold": self.threshold,
        }

    def save(self, directory: str | Path) -> Path:
        """Write the manifest and the weights into ``directory``."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        ngrams = {}
        if self.ngrams is not None:
            ngrams = {"ngram_terms": np.array(self.ngrams.terms), "ngram_idf": self.ngrams.idf}
        np.savez(
            directory / WEIGHTS,
            mean=self.model.mean,
            scale=self.model.scale,
            coef=self.model.coef,
            intercept=self.model.intercept,
            classes=np.array(self.model.classes),
            **ngrams,
        )
        (directory / MANIFEST).write_text(json.dumps(self.manifest, indent=1) + "\n")
        return directory


def load_scorer(directory: str | Path) -> LearnedScorer:
    """A saved scorer, or a ``DataError`` saying what is missing or wrong."""
    directory = Path(directory)
    manifest_path, weights_path = directory / MANIFEST, directory / WEIGHTS
    if not manifest_path.is_file() or not weights_path.is_file():
        raise DataError(
            f"not a scorer directory (needs {MANIFEST} and {WEIGHTS})", where=str(directory)
        )
    try:
        manifest = json.loads(manifest_path.read_text())
    except json.JSONDecodeError as exc:
        raise DataError(f"{MANIFEST}: not valid JSON ({exc.msg})", where=str(directory)) from None
    if manifest.get("format") != FORMAT:
        raise DataError(
            f"{MANIFEST}: format {manifest.get('format')!r}, expected {FORMAT!r}",
            where=str(directory),
        )
    version = manifest.get("features", {}).get("version")
    if version not in FEATURE_SETS:
        raise DataError(
            f"trained on features {version!r}; this maieutic computes "
            f"{', '.join(FEATURE_SETS)}: train the scorer again",
            where=str(directory),
        )
    with np.load(weights_path, allow_pickle=False) as arrays:
        model = LinearModel(
            arrays["mean"], arrays["scale"], arrays["coef"], arrays["intercept"],
            [str(c) for c in arrays["classes"]],
        )  # fmt: skip
        ngrams = None
        if "ngram_terms" in arrays:
            ngrams = QuestionNgrams([str(t) for t in arrays["ngram_terms"]], arrays["ngram_idf"])
    if version in WITH_NGRAMS and ngrams is None:
        raise DataError(
            f"{WEIGHTS}: feature set {version!r} needs the n-gram vocabulary "
            "(ngram_terms, ngram_idf): train the scorer again",
            where=str(directory),
        )
    return LearnedScorer(model, manifest, ngrams)
