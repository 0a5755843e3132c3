"""The registered evaluator of the FOCUS task. Its factory takes plain values only, so
the ``Spec`` recorded in a results file rebuilds the same evaluator."""

from __future__ import annotations

from maieutic.embed.options import EMBEDDING_DEFAULTS, EmbeddingOptions
from maieutic.registry import register
from maieutic.tasks.focus.evaluate import FocusEvaluator


@register("evaluator", task="focus", name="type-span")
def type_span(
    mode: str = "category",
    *,
    pairing: str = "type",
    span_embedding: bool = True,
    embedding_model: str = EMBEDDING_DEFAULTS.embedding_model,
    embedding_backend: str = EMBEDDING_DEFAULTS.embedding_backend,
    batch_size: int = EMBEDDING_DEFAULTS.batch_size,
) -> FocusEvaluator:
    """Types by multi-label P/R/F1; spans by Jaccard, ROUGE-L, edit similarity and a
    BERTScore-style embedding F1 (``span_embedding``)."""
    similarity = None
    if span_embedding:
        from maieutic.tasks.focus.span_metrics import TokenEmbeddingSimilarity

        encoder = EmbeddingOptions.of(locals()).encoder()
        similarity = TokenEmbeddingSimilarity(encoder)
    return FocusEvaluator(mode, pairing=pairing, embedding=similarity)
