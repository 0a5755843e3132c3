"""The registered generators of the FOCUS task."""

from __future__ import annotations

from maieutic.errors import DataError
from maieutic.llm.options import LLM_DEFAULTS, LLMOptions
from maieutic.llm.types import GenerationParams
from maieutic.registry import create, register
from maieutic.samples import sample_path
from maieutic.tasks.focus.claims_focus import ClaimsFocusGenerator
from maieutic.tasks.focus.data import load_gold
from maieutic.tasks.focus.generate import CueFocusGenerator
from maieutic.tasks.focus.llm_focus import LLMFocusGenerator
from maieutic.tasks.focus.llm_prompts import PromptContext


@register("generator", task="focus", name="claims")
def claims() -> ClaimsFocusGenerator:
    """Model-free (``ask``'s default): the text's own claims, restated, each with the
    weakness type its kind of claim calls for; span = the claim's words in the text."""
    return ClaimsFocusGenerator()


@register("generator", task="focus", name="cues")
def cues(
    use_categories: bool = True, wording: str = "restated", require_question: bool = False
) -> CueFocusGenerator:
    """Model-free: types from linguistic cues, the shortest clause carrying the first cue
    as the span; the question restates the span cleanly (``wording="restated"``) or puts
    it in the type's template word for word (``"template"``, FOCUS's released style).
    ``require_question`` keeps, among every type detected, the first two a clean question
    can be written for (``ask`` does; the benchmark's predictions keep the first two)."""
    if wording not in ("restated", "template"):
        raise DataError(f"wording must be restated or template, not {wording!r}")
    return CueFocusGenerator(use_categories, wording, require_question)


@register("generator", task="focus", name="llm", uses_llm=True)
def llm(
    strategy: str = "zero-shot",
    llm: str | None = None,
    *,
    base_url: str | None = None,
    llm_backend: str = LLM_DEFAULTS.llm_backend,
    use_categories: bool = True,
    rewrite: bool = False,
    seed: int = 0,
    temperature: float = 0.3,
    max_tokens: int = 256,
    shots: int = 5,
    shots_from: str | None = None,
    concurrency: int = LLM_DEFAULTS.concurrency,
    timeout: float = LLM_DEFAULTS.timeout,
    retries: int = LLM_DEFAULTS.retries,
) -> LLMFocusGenerator:
    """A language model prompted with one strategy (zero-shot, few-shot, cot)."""
    pool = None
    if strategy == "few-shot":
        pool = load_gold(shots_from) if shots_from else load_gold(sample_path("focus/shots.jsonl"))
    context = PromptContext(pool=pool, shots=shots, seed=seed)
    return LLMFocusGenerator(
        LLMOptions.of(locals()).client(),
        create("strategy", task="focus", name=strategy),
        context,
        params=GenerationParams(
            temperature=temperature, top_p=1.0, max_tokens=max_tokens, seed=seed
        ),
        use_categories=use_categories,
        rewrite=rewrite,
    )
