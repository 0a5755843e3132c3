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

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from maieutic.embed.store import embed_texts
from maieutic.tasks.aura.data import (
    Block,
    Unit,
    blocks,
    build_units,
    check_document_text,
    mostly_non_latin,
)
from maieutic.tasks.aura.metrics import Mapping

LIST_WINDOW = 2


@dataclass(frozen=True)
class Threshold:
    """The answerability threshold on the scorer's own scale."""

    value: float
    rule: str = "gt"
    """``gt`` (strictly above: the paper) or ``ge`` (at least: the reference code)."""

    def passes(self, score: float) -> bool:
        """Whether ``score`` makes a question answerable."""
        return score > self.value if self.rule == "gt" else score >= self.value


@dataclass(kw_only=True)
class IndexedDocument:
    """A document's units, their vectors and the search index."""

    units: list[Unit]
    vectors: np.ndarray
    index: object
    blocks: list[Block]


def load_cross_encoder(name: str):
    """The named cross-encoder, or one line (exit 2) saying why not and how to get it."""
    from sentence_transformers import CrossEncoder

    from maieutic.embed.encoder import cached_model_path, hub_unreachable, model_unavailable

    if why := hub_unreachable(name):
        raise model_unavailable("cross-encoder", name=name, exc=RuntimeError(why))
    try:
        return CrossEncoder(cached_model_path(name) or name)
    except Exception as exc:  # the library raises many types for "not found / offline"
        raise model_unavailable("cross-encoder", name=name, exc=exc) from None


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
                self._cross = load_cross_encoder(self.cross_encoder_name)
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


def document_units(text: str, where: str | None) -> tuple[list[Block], list[Unit]]:
    """The document's blocks and units, or one line saying why it has none: the one
    verdict on whether a document has anything to ask about, for ``evaluate aura``
    and ``generate aura`` alike."""
    from maieutic.errors import DataError

    check_document_text(text, where)
    document_blocks = blocks(text)
    units = build_units(document_blocks)
    if any(u.type == "necessary" for u in units):
        return document_blocks, units
    if mostly_non_latin(text):
        # a unit needs three Latin-letter words, sentences are split by English rules
        # and embedded by an English model: the text is there, its language is the cause
        raise DataError(
            "the document's language is not supported: most of its letters are not Latin, "
            "and AURA reads English (its sentence splitter, models and question templates "
            "are English)",
            where=where,
        )
    raise DataError("the document has no content to ask about (no sentence or list)", where=where)


def index_document(
    text: str, reranker: Reranker, link_threshold: float = 0.85, *, where: str | None = None
) -> IndexedDocument:
    """Units of ``text`` with their vectors, windows linked, and a faiss index
    (``where``, the document's path, names it in an error)."""
    import faiss

    document_blocks, units = document_units(text, where)
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
    return IndexedDocument(units=units, vectors=unit_matrix, index=index, blocks=document_blocks)


def _refine_list(
    question: str, unit: Unit, score: float, *, reranker: Reranker
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
    *,
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
            score, window, span = _refine_list(question, unit, score, reranker=reranker)
        mappings.append(
            Mapping(
                question=question,
                chunk_id=unit.chunk_id,
                score=score,
                answerable=threshold.passes(score),
                window=window,
            )
        )
        spans.append(span)
    return mappings, spans
