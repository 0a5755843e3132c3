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

import copy
import hashlib
import json
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from maieutic.data import guard
from maieutic.data.files import read_bytes
from maieutic.errors import DataError, RunError
from maieutic.scorers.features import (
    FEATURE_SETS,
    WITH_NGRAMS,
    QuestionNgrams,
    dense_version,
    pair_features,
    with_ngrams,
)
from maieutic.scorers.stored import read_arrays, read_manifest

MANIFEST = "manifest.json"
WEIGHTS = "model.npz"
FORMAT = "maieutic.scorer/1"
SCORE_ROWS = 512
"""Rows scored at once with a wide n-gram block."""
RECIPE_FIELDS = (
    "format",
    "task",
    "positive",
    "classes",
    "threshold_rule",
    "model",
    "features",
    "training",
)
"""The manifest's sections that say how a scorer was made (none holds a computed
float): what ``recipe_identity`` hashes."""


def context_hash(text: str) -> str:
    """A short hash of a context (whitespace-normalised)."""
    return hashlib.sha256(" ".join(text.split()).encode()).hexdigest()[:12]


@dataclass(kw_only=True)
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
            mean=scaler.mean_.astype(np.float64),
            scale=np.where(scaler.scale_ == 0, 1.0, scaler.scale_).astype(np.float64),
            coef=regression.coef_.astype(np.float64),
            intercept=regression.intercept_.astype(np.float64),
            classes=[str(c) for c in regression.classes_],
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

    def score(self, encoder, contexts, questions, *, schemes=None, store=None) -> np.ndarray:
        """P(positive) of each (context, question) pair."""
        version = dense_version(self.manifest["features"]["version"])
        dense = pair_features(
            encoder, contexts, questions=questions, schemes=schemes, store=store, version=version
        )
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
        """A short hash naming the bytes of one build: the training section, the n-gram
        terms and the float weights as stored. A rebuild with the recorded command on
        another CPU or BLAS rounds the weights differently (about the seventh digit), so
        it is another build with another identity; what a signature names is the
        recipe (``recipe_identity``)."""
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

    def recipe_identity(self) -> str:
        """A short hash of how the scorer was made, with no number the training
        computed: task, classes, model settings, feature set and encoder, the training
        data's hashes, seed and example kind, and the n-gram terms. A rebuild with the
        recorded command has the same recipe identity on any machine."""
        recipe = {key: self.manifest.get(key) for key in RECIPE_FIELDS}
        digest = hashlib.sha256(json.dumps(recipe, sort_keys=True).encode())
        if self.ngrams is not None:
            digest.update("\n".join(self.ngrams.terms).encode())
        return digest.hexdigest()[:10]

    def signature_fields(self) -> dict[str, Any]:
        """What enters the signature of every score this scorer produces: the recipe
        (so that scores of the same judge compare across machines), and the build as
        ``scorer_build``, which ``maieutic compare`` does not require to match; its
        threshold to 4 places as ``scorer_threshold`` (the exact one is in the
        manifest)."""
        return {
            "scorer": self.recipe_identity(),
            "scorer_build": self.identity(),
            "scorer_task": self.manifest["task"],
            "scorer_data": self.manifest["training"]["data_sha256"][:12],
            # to 4 places, as the recipe fixes it: a rebuild moves it by about 1e-8. Its
            # own name: as "threshold" it overwrote the evaluator's threshold in a file
            "scorer_threshold": round(self.threshold, 4),
        }

    def save(self, directory: str | Path) -> Path:
        """Write the weights and the manifest into ``directory``, each atomically.

        A ``RunError`` (nothing in the folder changed) when they cannot be written.
        """
        directory = Path(directory)
        ngrams = {}
        if self.ngrams is not None:
            ngrams = {"ngram_terms": np.array(self.ngrams.terms), "ngram_idf": self.ngrams.idf}
        arrays = {
            "mean": self.model.mean,
            "scale": self.model.scale,
            "coef": self.model.coef,
            "intercept": self.model.intercept,
            "classes": np.array(self.model.classes),
            **ngrams,
        }
        manifest = (json.dumps(self.manifest, indent=1) + "\n").encode("utf-8")
        try:
            directory.mkdir(parents=True, exist_ok=True)
            _save_pair(directory, lambda f: np.savez_compressed(f, **arrays), manifest)
        except OSError as exc:
            raise RunError(
                f"cannot write the scorer: {exc.strerror or exc}", where=str(directory)
            ) from None
        return directory


def saved_files(directory: str | Path) -> list[Path]:
    """The files ``LearnedScorer.save`` writes in ``directory`` (checked against the
    inputs before a training starts, and again as they are written)."""
    return [Path(directory) / WEIGHTS, Path(directory) / MANIFEST]


def _temp_file(path: Path, write: Callable[[BinaryIO], None]) -> Path:
    """``write`` into a temporary file beside ``path`` (same folder, so that the final
    ``os.replace`` is a rename), flushed to disk; removed again if anything fails."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temp.open("wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


def _save_pair(directory: Path, write_weights: Callable[[BinaryIO], None], manifest: bytes) -> None:
    """Write ``model.npz`` and ``manifest.json`` so that a folder with a manifest always
    has the weights trained with it.

    Both are written to temporary files first: a full disk fails there, before the
    folder changes. Then an old manifest goes, the weights replace the old ones, and
    the manifest comes last: a run killed in between leaves a folder that is "not a
    scorer directory", never a manifest beside half-written or other weights.
    """
    # an input can sit in the folder under either name (--data DIR/model.npz --out-dir
    # DIR): refused before a byte is written
    guard.check_outputs(saved_files(directory), "--out-dir")
    weights = _temp_file(directory / WEIGHTS, write_weights)
    try:
        header = _temp_file(directory / MANIFEST, lambda f: f.write(manifest))
    except BaseException:
        weights.unlink(missing_ok=True)
        raise
    (directory / MANIFEST).unlink(missing_ok=True)
    os.replace(weights, directory / WEIGHTS)
    os.replace(header, directory / MANIFEST)
    _sync_folder(directory)


def _sync_folder(directory: Path) -> None:
    # the renames themselves reach the disk only when the folder is flushed (POSIX)
    if hasattr(os, "O_DIRECTORY"):
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


_LOADED: dict[tuple, LearnedScorer] = {}
_LOADED_LOCK = threading.Lock()


def load_scorer(directory: str | Path) -> LearnedScorer:
    """A saved scorer, or a ``DataError`` (one line) saying what is missing or wrong.
    Parsed once per process while its files' bytes (hashed: a change within a clock
    tick counts) stay the same; each call gets its own manifest, the weights shared."""
    directory = Path(directory)
    manifest_path, weights_path = directory / MANIFEST, directory / WEIGHTS
    if not manifest_path.is_file() or not weights_path.is_file():
        raise DataError(
            f"not a scorer directory (needs {MANIFEST} and {WEIGHTS})", where=str(directory)
        )
    key = (str(directory.resolve()), _files_digest(manifest_path, weights_path))
    with _LOADED_LOCK:
        learned = _LOADED.get(key) if key[1] else None
        if learned is None:
            learned = _read_scorer(directory)
            if key[1]:
                _LOADED[key] = learned
    return LearnedScorer(learned.model, copy.deepcopy(learned.manifest), learned.ngrams)


def _files_digest(*paths: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        try:
            digest.update(read_bytes(path))
        except (OSError, DataError):  # unreadable: no key; reading it again says why
            return ""
        digest.update(b"\0")
    return digest.hexdigest()


def _read_scorer(directory: Path) -> LearnedScorer:
    manifest_path, weights_path = directory / MANIFEST, directory / WEIGHTS
    manifest = read_manifest(manifest_path)
    version = manifest["features"].get("version")
    if version not in FEATURE_SETS:
        raise DataError(
            f"trained on features {version!r}; this maieutic computes "
            f"{', '.join(FEATURE_SETS)}: train the scorer again",
            where=str(directory),
        )
    model, ngrams = read_weights(weights_path)
    if version in WITH_NGRAMS and ngrams is None:
        raise DataError(
            f"feature set {version!r} needs the n-gram vocabulary "
            "(ngram_terms, ngram_idf): train the scorer again",
            where=str(weights_path),
        )
    if manifest["positive"] not in model.classes:
        raise DataError(
            f"the positive class {manifest['positive']!r} is not among the model's classes "
            f"{model.classes}: train the scorer again",
            where=str(directory),
        )
    return LearnedScorer(model, manifest, ngrams)


def read_weights(path: Path) -> tuple[LinearModel, QuestionNgrams | None]:
    """The model (and n-gram vocabulary) in ``model.npz``, checked before use."""
    arrays = read_arrays(path)
    model = LinearModel(
        mean=arrays["mean"],
        scale=arrays["scale"],
        coef=arrays["coef"],
        intercept=arrays["intercept"],
        classes=[str(c) for c in arrays["classes"]],
    )
    ngrams = None
    if "ngram_terms" in arrays:
        ngrams = QuestionNgrams([str(t) for t in arrays["ngram_terms"]], arrays["ngram_idf"])
    return model, ngrams
