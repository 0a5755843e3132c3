"""Reducing candidate questions to the three a submission needs.

A selector takes the candidates for one intervention (in generation order) and
returns ``k`` of them whenever at least ``k`` exist: preferring some candidates over
others never costs an intervention its questions. Selectors register by name
(``@register("selector", "cqs", NAME)``); a learned usefulness scorer is one more.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from maieutic.data.cqs import Intervention
from maieutic.registry import register

Selector = Callable[[Intervention, Sequence[str], int], list[str]]
_WORD = re.compile(r"[a-z']{4,}")


def first_k(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
    """The first ``k`` candidates."""
    return list(candidates[:k])


def diverse_k(
    candidates: Sequence[str], vectors: dict[str, np.ndarray], k: int, max_similarity: float
) -> list[str]:
    """Greedy in candidate order: keep a candidate unless its cosine with one already
    kept exceeds ``max_similarity``; if fewer than ``k`` survive, top up with the
    remaining candidates least similar to those kept."""
    kept: list[str] = []
    for text in candidates:
        if all(float(vectors[text] @ vectors[other]) <= max_similarity for other in kept):
            kept.append(text)
        if len(kept) == k:
            return kept
    rest = [c for c in candidates if c not in kept]
    while len(kept) < k and rest:
        closest = [max(float(vectors[c] @ vectors[o]) for o in kept) if kept else 0 for c in rest]
        kept.append(rest.pop(int(np.argmin(closest))))
    return [c for c in candidates if c in kept]


def overlap_score(intervention: Intervention, question: str) -> float:
    """Share of the question's content words that occur in the text: a cheap proxy for
    "about this argument" (questions with new concepts tend to be Invalid)."""
    text_words = set(_WORD.findall(intervention.intervention.lower()))
    words = _WORD.findall(question.lower())
    return sum(w in text_words for w in words) / len(words) if words else 0.0


def make_score_selector(scorer: Callable[[Intervention, str], float] = overlap_score) -> Selector:
    """Keep the ``k`` highest-scoring candidates (stable for ties), in candidate order."""

    def select(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
        scores = np.array([scorer(intervention, c) for c in candidates])
        order = np.argsort(-scores, kind="stable")[:k]
        return [candidates[i] for i in sorted(order)]

    return select


@register("selector", "cqs", "first")
def first() -> Selector:
    """The first three candidates."""
    return first_k


@register("selector", "cqs", "dedup")
def dedup(max_similarity: float = 0.85, cache: bool = True) -> Selector:
    """Avoid near-duplicates: greedy by embedding cosine (embedded model), topped up
    with the least similar remaining candidates."""

    def select(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
        if len(candidates) <= 1:
            return list(candidates[:k])
        from maieutic.embed.encoder import Encoder
        from maieutic.embed.store import EmbeddingStore, embed_texts

        encoder = _ENCODER.setdefault("encoder", Encoder())
        store = EmbeddingStore() if cache else None
        vectors = embed_texts(list(candidates), encoder, store)
        return diverse_k(candidates, vectors, k, max_similarity)

    return select


_ENCODER: dict[str, object] = {}  # one model load per process, shared by dedup selectors


@register("selector", "cqs", "overlap")
def overlap() -> Selector:
    """Prefer questions whose content words occur in the text."""
    return make_score_selector(overlap_score)
