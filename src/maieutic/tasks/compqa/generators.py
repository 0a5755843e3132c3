"""The registered generator of the CompQA task: comparative answers under the four
prompting scenarios."""

from __future__ import annotations

from maieutic.errors import DataError
from maieutic.llm.options import LLM_DEFAULTS, LLMOptions
from maieutic.llm.types import GenerationParams
from maieutic.registry import register
from maieutic.tasks.compqa.generation import ComparativeAnswerGenerator
from maieutic.tasks.compqa.scenarios import SCENARIOS


@register("generator", task="compqa", name="llm", uses_llm=True)
def llm(
    scenarios: list[str] | None = None,
    llm: str | None = None,
    *,
    base_url: str | None = None,
    llm_backend: str = LLM_DEFAULTS.llm_backend,
    seed: int = 0,
    temperature: float = 0.7,
    max_tokens: int = 768,
    concurrency: int = LLM_DEFAULTS.concurrency,
    timeout: float = 300.0,
    retries: int = LLM_DEFAULTS.retries,
    samples: int = 1,
) -> ComparativeAnswerGenerator:
    """A language model answering "What is better: A or B?" in the chosen scenarios
    (``samples`` answers to each, each scored as a separate answer)."""
    chosen = list(scenarios or SCENARIOS)
    unknown = [s for s in chosen if s not in SCENARIOS]
    if unknown:
        raise DataError(f"--scenario must be one of {', '.join(SCENARIOS)}, not {unknown[0]!r}")
    return ComparativeAnswerGenerator(
        LLMOptions.of(locals()).client(),
        chosen,
        GenerationParams(temperature=temperature, top_p=1.0, max_tokens=max_tokens, seed=seed),
        samples=samples,
    )
