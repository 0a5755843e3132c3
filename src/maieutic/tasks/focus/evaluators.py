"""The registered evaluator of the FOCUS task. Its factory takes plain values only, so
the ``Spec`` recorded in a results file rebuilds the same evaluator."""

from __future__ import annotations

from maieutic.embed.encoder import DEFAULT_MODEL, Encoder
from maieutic.registry import register
from maieutic.tasks.focus.evaluate import FocusEvaluator


@register("evaluator", "focus", "type-span")
def type_span(
    mode: str = "category",
    pairing: str = "type",
    span_embedding: bool = True,
    embedding_model: str = DEFAULT_MODEL,
    embedding_backend: str = "torch",
    batch_size: int = 64,
) -> FocusEvaluator:
    """Types by multi-label P/R/F1; spans by Jaccard, ROUGE-L, edit similarity and a
    BERTScore-style embedding F1 (``span_embedding``)."""
    similarity = None
    if span_embedding:
        from maieutic.tasks.focus.span_metrics import TokenEmbeddingSimilarity

        encoder = Encoder(embedding_model, backend=embedding_backend, batch_size=batch_size)
        similarity = TokenEmbeddingSimilarity(encoder)
    return FocusEvaluator(mode, pairing, similarity)
