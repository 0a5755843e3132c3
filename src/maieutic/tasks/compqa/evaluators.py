"""The registered CompQA scorers: ``rules`` (offline), ``llm`` (a rubric judge, zero- or
few-shot) and ``rules+llm`` (rules where they decide, the judge elsewhere). Arguments
are plain values, so a results file's ``Spec`` rebuilds the scorer."""

from __future__ import annotations

from maieutic.embed.options import EMBEDDING_DEFAULTS, EmbeddingOptions
from maieutic.errors import DataError
from maieutic.llm.options import LLM_DEFAULTS, LLMOptions
from maieutic.registry import register
from maieutic.samples import sample_path
from maieutic.tasks.compqa.evaluate import RubricEvaluator
from maieutic.tasks.compqa.judge import RubricJudge
from maieutic.tasks.compqa.rules import RuleJudge
from maieutic.tasks.compqa.shots import DEFAULT_SHOTS

STRATEGIES = ("zero-shot", "few-shot")


def default_shots() -> str:
    """The bundled human-scored examples (two short answers written for maieutic)."""
    return str(sample_path("compqa/shots.json"))


@register("evaluator", task="compqa", name="rules")
def rules(
    embedding_model: str = EMBEDDING_DEFAULTS.embedding_model,
    *,
    embedding_backend: str = EMBEDDING_DEFAULTS.embedding_backend,
    batch_size: int = EMBEDDING_DEFAULTS.batch_size,
) -> RubricEvaluator:
    """Text rules for criteria 1–7, 13 and 15; the rest unscored (offline)."""
    encoder = EmbeddingOptions.of(locals()).encoder()
    return RubricEvaluator(RuleJudge(encoder), None, "rules")


def _judge(
    strategy: str, shots: str | None, n_shots: int, *, seed: int, max_tokens: int, model: LLMOptions
) -> tuple[RubricJudge, tuple[str, int, int] | None]:
    """The rubric judge and where its few-shot examples come from (None: zero-shot)."""
    if strategy not in STRATEGIES:
        raise DataError(f"--strategy must be one of {', '.join(STRATEGIES)}")
    if shots and strategy != "few-shot":
        raise DataError("--shots-from needs --strategy few-shot")
    source = (shots or default_shots(), n_shots, seed) if strategy == "few-shot" else None
    return RubricJudge(model.client(), max_tokens=max_tokens, seed=seed), source


@register("evaluator", task="compqa", name="llm", uses_llm=True)
def llm(
    strategy: str = "zero-shot",
    shots: str | None = None,
    n_shots: int = DEFAULT_SHOTS,
    *,
    llm: str | None = None,
    base_url: str | None = None,
    llm_backend: str = LLM_DEFAULTS.llm_backend,
    seed: int = 0,
    max_tokens: int = 200,
    concurrency: int = LLM_DEFAULTS.concurrency,
    timeout: float = LLM_DEFAULTS.timeout,
    retries: int = LLM_DEFAULTS.retries,
) -> RubricEvaluator:
    """A language model scoring all 15 criteria (zero- or few-shot)."""
    judge, source = _judge(
        strategy,
        shots,
        n_shots,
        seed=seed,
        max_tokens=max_tokens,
        model=LLMOptions.of(locals()),
    )
    return RubricEvaluator(None, judge, "llm", shot_source=source)


@register("evaluator", task="compqa", name="rules+llm", uses_llm=True)
def rules_llm(
    strategy: str = "zero-shot",
    shots: str | None = None,
    n_shots: int = DEFAULT_SHOTS,
    *,
    llm: str | None = None,
    base_url: str | None = None,
    llm_backend: str = LLM_DEFAULTS.llm_backend,
    seed: int = 0,
    max_tokens: int = 200,
    concurrency: int = LLM_DEFAULTS.concurrency,
    timeout: float = LLM_DEFAULTS.timeout,
    retries: int = LLM_DEFAULTS.retries,
    embedding_model: str = EMBEDDING_DEFAULTS.embedding_model,
    embedding_backend: str = EMBEDDING_DEFAULTS.embedding_backend,
    batch_size: int = EMBEDDING_DEFAULTS.batch_size,
) -> RubricEvaluator:
    """Rules where they decide, a language model for the other criteria."""
    judge, source = _judge(
        strategy,
        shots,
        n_shots,
        seed=seed,
        max_tokens=max_tokens,
        model=LLMOptions.of(locals()),
    )
    encoder = EmbeddingOptions.of(locals()).encoder()
    return RubricEvaluator(RuleJudge(encoder), judge, "rules+llm", shot_source=source)
