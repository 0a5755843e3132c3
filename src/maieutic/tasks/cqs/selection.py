"""Reducing candidate questions to the three a submission needs.

A selector takes the candidates for one intervention (in generation order) and
returns at most ``k``. New selectors (e.g. a learned usefulness scorer) register in
``SELECTORS``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from maieutic.data.cqs import Intervention

Selector = Callable[[Intervention, Sequence[str], int], list[str]]
_WORD = re.compile(r"[a-z']{4,}")


def first_k(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
    """The first ``k`` candidates."""
    return list(candidates[:k])


def make_dedup_selector(encoder=None, store=None, max_similarity: float = 0.85) -> Selector:
    """Greedy: keep a candidate unless it is too similar (cosine) to one already kept."""

    def select(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
        from maieutic.embed.encoder import Encoder
        from maieutic.embed.store import embed_texts

        if len(candidates) <= 1:
            return list(candidates[:k])
        nonlocal encoder
        encoder = encoder or Encoder()
        vectors = embed_texts(list(candidates), encoder, store)
        kept: list[str] = []
        for text in candidates:
            if all(float(vectors[text] @ vectors[other]) <= max_similarity for other in kept):
                kept.append(text)
            if len(kept) == k:
                break
        return kept

    return select


def overlap_score(intervention: Intervention, question: str) -> float:
    """Share of the question's content words that occur in the text: a cheap proxy for
    "about this argument" (questions with new concepts tend to be Invalid)."""
    text_words = set(_WORD.findall(intervention.intervention.lower()))
    words = _WORD.findall(question.lower())
    return sum(w in text_words for w in words) / len(words) if words else 0.0


def make_score_selector(scorer: Callable[[Intervention, str], float] = overlap_score) -> Selector:
    """Keep the ``k`` highest-scoring candidates (stable for ties)."""

    def select(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
        scores = np.array([scorer(intervention, c) for c in candidates])
        order = np.argsort(-scores, kind="stable")[:k]
        return [candidates[i] for i in sorted(order)]

    return select


SELECTORS: dict[str, Callable[..., Selector]] = {
    "first": lambda **_: first_k,
    "dedup": lambda encoder=None, store=None, **_: make_dedup_selector(encoder, store),
    "overlap": lambda **_: make_score_selector(overlap_score),
}
