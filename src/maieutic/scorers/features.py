"""Features of a (context, question) pair for the learned scorers.

Named feature sets; a scorer's manifest records the one it was trained on, and each
task's example source (``maieutic.scorers.sources``) says which one its scorers use
and why.

- ``pair-v1``: the question's and the context's vectors (embedded sentence encoder),
  their element-wise product and their cosine.
- ``pair-v2``: the question's unit vector and its cosine with the context (no context
  vector: it is constant within a group, so under grouped cross-validation it can only
  memorise texts).
- ``pair-v3``: ``pair-v2`` plus the question's word unigrams and bigrams (sublinear
  TF-IDF over a vocabulary learned from the training questions, at least two of them;
  ``QuestionNgrams``), for wordings that recur across texts with the same label, which
  a sentence vector blurs.

All add the surface part: the
question's length (log words), its opening word class (what, why, how, when/where,
who/which, a yes/no auxiliary, other), the share of its content words found in the
context, and the scheme of the argument when known (hashed into a few buckets, so an
unseen scheme still has a place). Every distinct text is encoded once per call (and
read from the on-disk cache when one is given).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy import sparse

from maieutic.embed.store import EmbeddingStore, embed_texts
from maieutic.language.word_lists import words

if TYPE_CHECKING:
    from sklearn.feature_extraction.text import TfidfVectorizer

WH_CLASSES = ("what", "why", "how", "when|where", "who|which|whose", "aux", "other")
_AUX = words(
    """is, are, was, were, do, does, did, can, could, should, would, will, has, have, had,
    may, might, must, shall"""
)
_WORD = re.compile(r"[a-z']{4,}")
SCHEME_BUCKETS = 16
N_SURFACE = 3 + len(WH_CLASSES) + SCHEME_BUCKETS


def wh_class(question: str) -> str:
    """The class of the question's first word."""
    words = re.findall(r"[a-z']+", question.lower())
    first = words[0] if words else ""
    for name in WH_CLASSES[:5]:
        if first in name.split("|"):
            return name
    return "aux" if first in _AUX else "other"


def overlap(context: str, *, question: str) -> float:
    """Share of the question's content words (4+ letters) that occur in the context."""
    context_words = set(_WORD.findall(context.lower()))
    words = _WORD.findall(question.lower())
    return sum(w in context_words for w in words) / len(words) if words else 0.0


def surface(context: str, *, question: str, scheme: str = "") -> np.ndarray:
    """The surface features of one pair."""
    out = np.zeros(N_SURFACE, dtype=np.float32)
    out[0] = np.log1p(len(question.split()))
    out[1] = overlap(context, question=question)
    out[2] = float(question.rstrip().endswith("?"))
    out[3 + WH_CLASSES.index(wh_class(question))] = 1.0
    if scheme:
        out[3 + len(WH_CLASSES) + zlib.crc32(scheme.lower().encode()) % SCHEME_BUCKETS] = 1.0
    return out


DENSE_SETS = ("pair-v1", "pair-v2")
FEATURE_SETS = (*DENSE_SETS, "pair-v3")
WITH_NGRAMS = {"pair-v3"}
"""Feature sets with a learned n-gram vocabulary (fitted on each training side)."""
NGRAM_MIN_QUESTIONS = 2


def dense_version(version: str) -> str:
    """The feature set of the part computed without a learned vocabulary."""
    return "pair-v2" if version in WITH_NGRAMS else version


def _vectorizer(vocabulary=None) -> TfidfVectorizer:
    # imported here: scikit-learn takes about a second to load, and every command that
    # can use a learned scorer imports this module, `--help` included
    from sklearn.feature_extraction.text import TfidfVectorizer

    return TfidfVectorizer(
        ngram_range=(1, 2), min_df=NGRAM_MIN_QUESTIONS, sublinear_tf=True, vocabulary=vocabulary
    )


@dataclass
class QuestionNgrams:
    """A question's word 1–2-grams as L2-normalised sublinear TF-IDF, over a vocabulary
    and inverse document frequencies learned from training questions (scikit-learn's
    ``TfidfVectorizer``; the terms and weights are stored with the scorer as plain
    arrays, so a saved scorer rebuilds the same transform)."""

    terms: list[str]
    idf: np.ndarray

    @classmethod
    def fit(cls, questions: Sequence[str]) -> QuestionNgrams:
        """Learn the vocabulary (terms in at least two questions) and their weights;
        an empty vocabulary when no term recurs (a few short questions)."""
        try:
            vectorizer = _vectorizer().fit(questions)
        except ValueError:  # scikit-learn: "no terms remain" / "empty vocabulary"
            return cls([], np.zeros(0))
        terms = [str(t) for t in vectorizer.get_feature_names_out()]
        return cls(terms, vectorizer.idf_.astype(np.float64))

    def transform(self, questions: Sequence[str]) -> sparse.csr_matrix:
        """A sparse matrix, one row per question, one column per term."""
        if not self.terms:
            return sparse.csr_matrix((len(questions), 0))
        vectorizer = _vectorizer({t: i for i, t in enumerate(self.terms)})
        vectorizer.idf_ = self.idf
        return vectorizer.transform(questions)

    def __len__(self) -> int:
        return len(self.terms)


def pair_features(
    encoder,
    contexts: Sequence[str],
    *,
    questions: Sequence[str],
    schemes: Sequence[str] | None = None,
    store: EmbeddingStore | None = None,
    version: str = "pair-v2",
) -> np.ndarray:
    """The feature matrix of the named feature set, one row per (context, question).
    A set with n-grams is computed in two parts: its dense part here
    (``dense_version``), the learned block by ``with_ngrams``."""
    if version in WITH_NGRAMS:
        raise ValueError(
            f"{version!r} adds a learned n-gram block to {dense_version(version)!r}: "
            "compute that here and append the block with with_ngrams()"
        )
    if version not in FEATURE_SETS:
        raise ValueError(f"unknown feature set {version!r}; known: {', '.join(FEATURE_SETS)}")
    schemes = schemes if schemes is not None else [""] * len(questions)
    vectors = embed_texts([*contexts, *questions], encoder, store)
    q = np.stack([vectors[t] for t in questions]).astype(np.float32)
    c = np.stack([vectors[t] for t in contexts]).astype(np.float32)
    cosine = np.sum(q * c, axis=1, keepdims=True)
    rest = np.stack(
        [
            surface(ct, question=qt, scheme=s)
            for ct, qt, s in zip(contexts, questions, schemes, strict=True)
        ]
    )
    if version == "pair-v1":
        return np.hstack([q, c, q * c, cosine, rest])
    return np.hstack([q, cosine, rest])


def with_ngrams(
    dense: np.ndarray, questions: Sequence[str], ngrams: QuestionNgrams | None
) -> np.ndarray:
    """The full feature rows: ``dense`` with the questions' n-gram block after it (or
    ``dense`` alone for a feature set without one)."""
    if ngrams is None:
        return dense
    return np.hstack([dense, ngrams.transform(questions).toarray()])
