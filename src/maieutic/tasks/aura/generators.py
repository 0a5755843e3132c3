"""The registered generator of the AURA task: questions about a document."""

from __future__ import annotations

from maieutic.errors import DataError
from maieutic.llm.options import LLM_DEFAULTS, LLMOptions
from maieutic.llm.types import GenerationParams
from maieutic.registry import register
from maieutic.tasks.aura.generation import GRANULARITIES, STRATEGIES, DocumentQuestionGenerator


@register("generator", task="aura", name="llm", uses_llm=True)
def llm(
    strategy: str = "zero-shot",
    *,
    granularity: str = "paragraph",
    llm: str | None = None,
    base_url: str | None = None,
    llm_backend: str = LLM_DEFAULTS.llm_backend,
    seed: int = 0,
    temperature: float = 0.3,
    max_tokens: int = 512,
    concurrency: int = LLM_DEFAULTS.concurrency,
    timeout: float = LLM_DEFAULTS.timeout,
    retries: int = LLM_DEFAULTS.retries,
) -> DocumentQuestionGenerator:
    """A language model writing questions per paragraph, page or whole document."""
    if strategy not in STRATEGIES:
        raise DataError(f"--strategy must be one of {', '.join(STRATEGIES)}")
    if granularity not in GRANULARITIES:
        raise DataError(f"--granularity must be one of {', '.join(GRANULARITIES)}")
    return DocumentQuestionGenerator(
        LLMOptions.of(locals()).client(),
        strategy,
        granularity=granularity,
        params=GenerationParams(
            temperature=temperature, top_p=1.0, max_tokens=max_tokens, seed=seed
        ),
    )
