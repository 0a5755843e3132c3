"""Finding, for each generated question, its most similar reference.

Cosine similarity over unit vectors is a matrix product; chrF (sacrebleu's sentence
chrF, on its 0–100 scale) is computed pairwise. Ties go to the first reference, as
``numpy.argmax`` does in the benchmark's own script.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sacrebleu.metrics import CHRF


def cosine_best(queries: np.ndarray, *, references: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For unit-vector rows, the index and cosine of each query's most similar reference."""
    sims = queries @ references.T
    best = sims.argmax(axis=1)
    return best, sims[np.arange(len(best)), best]


_CHRF = CHRF()  # sacrebleu defaults: character 6-grams, no word n-grams, beta 2


def chrf_matrix(queries: Sequence[str], *, references: Sequence[str]) -> np.ndarray:
    """Sentence-level chrF of every (query, reference) pair, shape ``(len(q), len(r))``."""
    out = np.empty((len(queries), len(references)), dtype=np.float64)
    for i, query in enumerate(queries):
        for j, ref in enumerate(references):
            out[i, j] = _CHRF.sentence_score(query, [ref]).score
    return out


def chrf_best(
    queries: Sequence[str], *, references: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """The index and chrF of each query's best-scoring reference."""
    sims = chrf_matrix(queries, references=references)
    best = sims.argmax(axis=1)
    return best, sims[np.arange(len(best)), best]
