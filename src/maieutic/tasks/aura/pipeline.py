"""Mapping questions to Information Units ("AURA-QG", section 4.2 and appendix B).

Units are embedded with the bi-encoder (each distinct text once, cached on disk) and
indexed with faiss (inner product of unit vectors = cosine); each question's top-k
units are reranked by a cross-encoder when one is named (raw logits) or else by the
bi-encoder cosine, and the best is its answer span. When the best unit is a whole list
that does not clear the threshold, windows of two consecutive items (stride 1) are
scored the same way and the best replaces the list only when it scores strictly
higher (appendix B.2). A window of sentences is linked to every necessary sentence
whose cosine with one of its sentences reaches ``link_threshold`` (appendix B.1).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from maieutic.embed.store import embed_texts
from maieutic.tasks.aura.data import Block, Unit, blocks, build_units
from maieutic.tasks.aura.metrics import Mapping

LIST_WINDOW = 2
MAX_DOCUMENT_CHARS = int(os.environ.get("MAIEUTIC_AURA_MAX_CHARS", 2_000_000))
"""About 600 pages of text: a whole manual fits; beyond it, encoding every unit on a
CPU takes many minutes, so the document is refused with the limit named."""


@dataclass(frozen=True)
class Threshold:
    """The answerability threshold on the scorer's own scale."""

    value: float
    rule: str = "gt"
    """``gt`` (strictly above: the paper) or ``ge`` (at least: the reference code)."""

    def passes(self, score: float) -> bool:
        """Whether ``score`` makes a question answerable."""
        return score > self.value if self.rule == "gt" else score >= self.value


@dataclass
class IndexedDocument:
    """A document's units, their vectors and the search index."""

    units: list[Unit]
    vectors: np.ndarray
    index: object
    blocks: list[Block]


class Reranker:
    """Scores (question, span) pairs: a cross-encoder's logits, or bi-encoder cosine."""

    def __init__(self, encoder, cross_encoder: str | None = None, store=None) -> None:
        self.encoder = encoder
        self.store = store
        self.cross_encoder_name = cross_encoder
        self._cross = None

    @property
    def scale(self) -> str:
        """``logit`` or ``cosine``."""
        return "logit" if self.cross_encoder_name else "cosine"

    def vectors(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Unit vectors of the distinct texts (from the cache when there)."""
        return embed_texts(list(texts), self.encoder, self.store)

    def score(self, question: str, spans: Sequence[str]) -> list[float]:
        """Relevance of each span to the question."""
        if self.cross_encoder_name:
            if self._cross is None:
                from sentence_transformers import CrossEncoder

                self._cross = CrossEncoder(self.cross_encoder_name)
            import torch

            # raw logits, whatever activation the model's config names (the paper's
            # threshold 2.5 is on logits)
            scores = self._cross.predict(
                [[question, s] for s in spans],
                show_progress_bar=False,
                activation_fn=torch.nn.Identity(),
            )
            return [float(s) for s in np.atleast_1d(scores)]
        vectors = self.vectors([question, *spans])
        return [float(vectors[question] @ vectors[s]) for s in spans]


def index_document(text: str, reranker: Reranker, link_threshold: float = 0.85) -> IndexedDocument:
    """Units of ``text`` with their vectors, windows linked, and a faiss index."""
    import faiss

    from maieutic.errors import DataError

    if len(text) > MAX_DOCUMENT_CHARS:
        raise DataError(
            f"the document has {len(text):,} characters, over the {MAX_DOCUMENT_CHARS:,} "
            "limit (split it, or raise MAIEUTIC_AURA_MAX_CHARS)"
        )
    document_blocks = blocks(text)
    units = build_units(document_blocks)
    if not any(u.type == "necessary" for u in units):
        raise DataError("the document has no content to ask about (no sentence or list)")
    sentences_needed = [s for u in units for s in u.sentences]
    vectors = reranker.vectors([u.text for u in units] + sentences_needed)
    paragraph = [u for u in units if u.subtype == "paragraph"]
    if paragraph:
        matrix = np.stack([vectors[u.text] for u in paragraph])
        for position, unit in enumerate(units):
            if unit.subtype != "window":
                continue
            similarity = np.stack([vectors[s] for s in unit.sentences]) @ matrix.T
            linked = {
                paragraph[j].chunk_id for j in np.nonzero((similarity >= link_threshold).any(0))[0]
            }
            units[position] = replace(unit, parent_chunk_ids=tuple(sorted(linked)))
    unit_matrix = np.stack([vectors[u.text] for u in units]).astype(np.float32)
    index = faiss.IndexFlatIP(unit_matrix.shape[1])
    index.add(unit_matrix)
    return IndexedDocument(units, unit_matrix, index, document_blocks)


def _refine_list(
    question: str, unit: Unit, score: float, reranker: Reranker
) -> tuple[float, int | None, str]:
    items = list(unit.items)
    windows = [" ".join(items[i : i + LIST_WINDOW]) for i in range(len(items) - LIST_WINDOW + 1)]
    if not windows:
        return score, None, unit.text
    scores = reranker.score(question, windows)
    best = int(np.argmax(scores))
    if scores[best] > score:
        return scores[best], best, windows[best]
    return score, None, unit.text


def map_questions(
    document: IndexedDocument,
    questions: Sequence[str],
    reranker: Reranker,
    threshold: Threshold,
    top_k: int = 5,
) -> tuple[list[Mapping], list[str]]:
    """Each question's best unit and score; also the span text chosen for each."""
    if not questions:
        return [], []
    vectors = reranker.vectors(list(questions))
    query = np.stack([vectors[q] for q in questions]).astype(np.float32)
    k = min(top_k, len(document.units))
    cosines, indices = document.index.search(query, k)
    mappings, spans = [], []
    for row, question in enumerate(questions):
        candidates = [document.units[i] for i in indices[row] if i >= 0]
        if reranker.scale == "cosine":
            scores = [float(c) for c in cosines[row][: len(candidates)]]
        else:
            scores = reranker.score(question, [u.text for u in candidates])
        best = int(np.argmax(scores))
        unit, score, window, span = candidates[best], scores[best], None, candidates[best].text
        if unit.subtype == "list" and not threshold.passes(score):
            score, window, span = _refine_list(question, unit, score, reranker)
        mappings.append(Mapping(question, unit.chunk_id, score, threshold.passes(score), window))
        spans.append(span)
    return mappings, spans
