"""The registered CompQA scorers: ``rules`` (offline), ``llm`` (a rubric judge, zero- or
few-shot) and ``rules+llm`` (rules where they decide, the judge elsewhere). Arguments
are plain values, so a results file's ``Spec`` rebuilds the scorer."""

from __future__ import annotations

from maieutic.embed.encoder import DEFAULT_MODEL, Encoder
from maieutic.errors import DataError
from maieutic.llm.factory import llm_client
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


@register("evaluator", "compqa", "rules")
def rules(
    embedding_model: str = DEFAULT_MODEL,
    embedding_backend: str = "torch",
    batch_size: int = 64,
) -> RubricEvaluator:
    """Text rules for criteria 1–7, 13 and 15; the rest unscored (offline)."""
    encoder = Encoder(embedding_model, backend=embedding_backend, batch_size=batch_size)
    return RubricEvaluator(RuleJudge(encoder), None, "rules")


def _judge(
    strategy,
    shots,
    n_shots,
    llm,
    base_url,
    llm_backend,
    seed,
    max_tokens,
    concurrency,
    timeout,
    retries,
) -> tuple[RubricJudge, tuple[str, int, int] | None]:
    if strategy not in STRATEGIES:
        raise DataError(f"--strategy must be one of {', '.join(STRATEGIES)}")
    if shots and strategy != "few-shot":
        raise DataError("--shots-from needs --strategy few-shot")
    client = llm_client(llm, base_url, llm_backend, concurrency, timeout, retries)
    source = (shots or default_shots(), n_shots, seed) if strategy == "few-shot" else None
    return RubricJudge(client, max_tokens=max_tokens, seed=seed), source


@register("evaluator", "compqa", "llm", uses_llm=True)
def llm(
    strategy: str = "zero-shot",
    shots: str | None = None,
    n_shots: int = DEFAULT_SHOTS,
    llm: str | None = None,
    base_url: str | None = None,
    llm_backend: str = "auto",
    seed: int = 0,
    max_tokens: int = 200,
    concurrency: int = 4,
    timeout: float = 120.0,
    retries: int = 4,
) -> RubricEvaluator:
    """A language model scoring all 15 criteria (zero- or few-shot)."""
    judge, source = _judge(
        strategy,
        shots,
        n_shots,
        llm,
        base_url,
        llm_backend,
        seed,
        max_tokens,
        concurrency,
        timeout,
        retries,
    )
    return RubricEvaluator(None, judge, "llm", shot_source=source)


@register("evaluator", "compqa", "rules+llm", uses_llm=True)
def rules_llm(
    strategy: str = "zero-shot",
    shots: str | None = None,
    n_shots: int = DEFAULT_SHOTS,
    llm: str | None = None,
    base_url: str | None = None,
    llm_backend: str = "auto",
    seed: int = 0,
    max_tokens: int = 200,
    concurrency: int = 4,
    timeout: float = 120.0,
    retries: int = 4,
    embedding_model: str = DEFAULT_MODEL,
    embedding_backend: str = "torch",
    batch_size: int = 64,
) -> RubricEvaluator:
    """Rules where they decide, a language model for the other criteria."""
    judge, source = _judge(
        strategy,
        shots,
        n_shots,
        llm,
        base_url,
        llm_backend,
        seed,
        max_tokens,
        concurrency,
        timeout,
        retries,
    )
    encoder = Encoder(embedding_model, backend=embedding_backend, batch_size=batch_size)
    return RubricEvaluator(RuleJudge(encoder), judge, "rules+llm", shot_source=source)
