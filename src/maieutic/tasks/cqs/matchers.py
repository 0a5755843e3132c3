"""Matchers pair each generated question with its most similar reference.

A matcher only measures; turning a match into a label (threshold, NAE) is the
scoring module's job, so every matcher is scored by the same rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from maieutic.embed.encoder import Encoder
from maieutic.embed.store import EmbeddingStore, embed_texts
from maieutic.metrics.similarity import chrf_best, chrf_matrix, cosine_best
from maieutic.tasks.cqs.data import Intervention


@dataclass(frozen=True, kw_only=True)
class Match:
    """The verdict on one generated question.

    Similarity evaluators give the best reference and its similarity (the threshold
    then decides); an LLM matcher gives the chosen reference (similarity 1) or none;
    a labelling judge gives the label directly. ``note`` records why (e.g. a judge
    reply that could not be parsed).
    """

    reference_index: int | None
    similarity: float | None = None
    label: str | None = None
    """A label decided by the matcher itself (a judge), including ``unscored``."""
    note: str | None = None


WorkItem = tuple[Intervention, Sequence[str]]
"""An intervention (with the references to match against) and questions to judge."""


def unmatched(questions: Sequence[str]) -> list[Match]:
    """No reference for any of ``questions``: a text read without references (with an
    NAE fallback judge, which then labels every question)."""
    return [
        Match(reference_index=None, similarity=None, note="no reference questions")
        for _ in questions
    ]


class Matcher(Protocol):
    """Finds the best reference for each question of one intervention."""

    name: str

    def prepare(self, items: Sequence[WorkItem]) -> None:
        """Called once per run with all the work, so it can be batched."""

    def match(self, intervention: Intervention, questions: Sequence[str]) -> list[Match]:
        """The best reference of each question, in order."""

    def signature_fields(self) -> dict[str, object]:
        """Model and backend fields for the result signature."""


class EmbeddingMatcher:
    """Cosine similarity of sentence embeddings (the benchmark's STS evaluation).

    Every distinct text of the run is encoded once, in batches, in ``prepare``; vectors
    persist in the embedding store so later runs encode only new texts.
    """

    name = "sts"

    def __init__(self, encoder: Encoder | None = None, store: EmbeddingStore | None = None):
        self.encoder = encoder or Encoder()
        self.store = store
        self._vectors: dict[str, np.ndarray] = {}

    def prepare(self, items: Sequence[WorkItem]) -> None:
        texts = []
        for intervention, questions in items:
            texts.extend(q.cq for q in intervention.cqs)
            texts.extend(questions)
        self._encode(texts)

    def _encode(self, texts: Sequence[str]) -> None:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            self._vectors.update(embed_texts(missing, self.encoder, self.store))

    def _matrix(self, texts: Sequence[str]) -> np.ndarray:
        self._encode(texts)
        return np.stack([self._vectors[t] for t in texts])

    def match(self, intervention: Intervention, questions: Sequence[str]) -> list[Match]:
        if not intervention.cqs:
            return unmatched(questions)
        refs = self._matrix([q.cq for q in intervention.cqs])
        best, sims = cosine_best(self._matrix(questions), references=refs)
        return [
            Match(reference_index=int(i), similarity=float(s))
            for i, s in zip(best, sims, strict=True)
        ]

    def similarities(self, questions: Sequence[str], *, candidates: Sequence[str]) -> np.ndarray:
        """Cosine of every (question, candidate) pair, shape ``(questions, candidates)``."""
        return self._matrix(questions) @ self._matrix(candidates).T

    def signature_fields(self) -> dict[str, object]:
        return {"model": self.encoder.display_name, "backend": self.encoder.backend}


class ChrfMatcher:
    """Character n-gram F-score (sacrebleu chrF, 0–100) as the similarity."""

    name = "chrf"

    def prepare(self, items: Sequence[WorkItem]) -> None:
        return None

    def match(self, intervention: Intervention, questions: Sequence[str]) -> list[Match]:
        if not intervention.cqs:
            return unmatched(questions)
        best, sims = chrf_best(list(questions), references=[q.cq for q in intervention.cqs])
        return [
            Match(reference_index=int(i), similarity=float(s))
            for i, s in zip(best, sims, strict=True)
        ]

    def similarities(self, questions: Sequence[str], *, candidates: Sequence[str]) -> np.ndarray:
        """chrF of every (question, candidate) pair, shape ``(questions, candidates)``."""
        return chrf_matrix(list(questions), references=list(candidates))

    def signature_fields(self) -> dict[str, object]:
        return {"model": None, "backend": None}
