"""The registered AURA evaluator: plain-valued arguments, so a results file's ``Spec``
rebuilds it."""

from __future__ import annotations

from maieutic.embed.options import EMBEDDING_DEFAULTS, EmbeddingOptions
from maieutic.embed.store import EmbeddingStore
from maieutic.errors import DataError
from maieutic.registry import SCORER_PREFIX, ThresholdScale, register
from maieutic.tasks.aura.evaluate import AuraEvaluator
from maieutic.tasks.aura.learned import LearnedAnswerability
from maieutic.tasks.aura.metrics import ENTROPY_VARIANTS, NON_REDUNDANCY_VARIANTS
from maieutic.tasks.aura.pipeline import Reranker, Threshold

LOGIT = ThresholdScale(
    low=-100.0,
    high=100.0,
    # the paper's threshold on cross-encoder logits, with a strict ">" (section 4.3.1;
    # the reference code uses 0 with ">=", which --threshold 0 --threshold-rule ge gives)
    default=2.5,
    unit="cross-encoder logit",
    sweep=(0.0, 1.5, 2.5, 3.5, 5.0, 7.5),
)
COSINE = ThresholdScale(
    low=-1.0,
    high=1.0,
    # chosen by the mean-shift sweep (README, "AURA": maieutic aura sweep)
    default=0.5,
    unit="cosine",
    sweep=(0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7),
)
CROSS_ENCODER = "cross-encoder/ms-marco-MiniLM-L-6-v2"
"""The seed's cross-encoder (a sentence-transformers name or a local directory)."""


def _build(
    threshold: float | None,
    threshold_rule: str,
    cross_encoder: str | None,
    *,
    embedding: EmbeddingOptions,
    cache: bool,
    top_k: int,
    link_threshold: float,
    entropy: str,
    answerability: str | None,
    non_redundancy: str,
) -> AuraEvaluator:
    """The evaluator, its options checked (each refusal names its option)."""
    if threshold_rule not in ("gt", "ge"):
        raise DataError(f"--threshold-rule must be gt or ge, not {threshold_rule!r}")
    if entropy not in ENTROPY_VARIANTS:
        raise DataError(f"--entropy must be one of {', '.join(ENTROPY_VARIANTS)}")
    if non_redundancy not in NON_REDUNDANCY_VARIANTS:
        raise DataError(
            f"--non-redundancy must be one of {', '.join(NON_REDUNDANCY_VARIANTS)}, "
            f"not {non_redundancy!r}"
        )
    if top_k < 1:
        raise DataError("--top-k must be at least 1")
    if (
        answerability
        and answerability != "similarity"
        and not answerability.startswith(SCORER_PREFIX)
    ):
        raise DataError(f"--answerability takes similarity or scorer:DIR, not {answerability!r}")
    encoder = embedding.encoder()
    store = EmbeddingStore() if cache else None
    reranker = Reranker(encoder, cross_encoder, store)
    learned = None
    if answerability and answerability != "similarity":
        learned = LearnedAnswerability.from_option(answerability, encoder, store)
    return AuraEvaluator(
        reranker,
        Threshold(threshold, threshold_rule),
        top_k,
        link_threshold=link_threshold,
        entropy=entropy,
        learned=learned,
        non_redundancy=non_redundancy,
    )


@register("evaluator", task="aura", name="aura", threshold=COSINE)
def aura(
    threshold: float | None = None,
    threshold_rule: str = "gt",
    *,
    embedding_model: str = EMBEDDING_DEFAULTS.embedding_model,
    embedding_backend: str = EMBEDDING_DEFAULTS.embedding_backend,
    batch_size: int = EMBEDDING_DEFAULTS.batch_size,
    cache: bool = True,
    top_k: int = 5,
    link_threshold: float = 0.85,
    entropy: str = "paper",
    answerability: str | None = None,
    non_redundancy: str = "paper",
) -> AuraEvaluator:
    """Offline: units retrieved and reranked by the bi-encoder's cosine."""
    return _build(
        threshold,
        threshold_rule,
        None,
        embedding=EmbeddingOptions.of(locals()),
        cache=cache,
        top_k=top_k,
        link_threshold=link_threshold,
        entropy=entropy,
        answerability=answerability,
        non_redundancy=non_redundancy,
    )


@register("evaluator", task="aura", name="aura-cross", threshold=LOGIT)
def aura_cross(
    threshold: float | None = None,
    threshold_rule: str = "gt",
    *,
    cross_encoder: str = CROSS_ENCODER,
    embedding_model: str = EMBEDDING_DEFAULTS.embedding_model,
    embedding_backend: str = EMBEDDING_DEFAULTS.embedding_backend,
    batch_size: int = EMBEDDING_DEFAULTS.batch_size,
    cache: bool = True,
    top_k: int = 5,
    link_threshold: float = 0.85,
    entropy: str = "paper",
    answerability: str | None = None,
    non_redundancy: str = "paper",
) -> AuraEvaluator:
    """As the paper: bi-encoder retrieval, cross-encoder reranking (raw logits)."""
    return _build(
        threshold,
        threshold_rule,
        cross_encoder,
        embedding=EmbeddingOptions.of(locals()),
        cache=cache,
        top_k=top_k,
        link_threshold=link_threshold,
        entropy=entropy,
        answerability=answerability,
        non_redundancy=non_redundancy,
    )
