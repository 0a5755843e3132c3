"""How ``ask`` is asked (``AskOptions``) and what each of its parts hands back
(``Part``): the questions, the signature and words of the generator that wrote them,
and what fell short."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from maieutic.llm.budget import DEFAULT_BUDGET_S


@dataclass(kw_only=True)
class AskOptions:
    """How to ask: offline on the embedded defaults unless a model is named."""

    llm: str | None = None
    """A language model for every part: ``embedded`` (the embedded model, in this
    process), a name at ``base_url``, or a GGUF file."""
    base_url: str | None = None
    scorer: str | None = None
    """A usefulness scorer directory (``maieutic train scorer --task cqs``) to select
    the critical questions from over-generated candidates."""
    candidates: int = 3
    """Samples per strategy for the LLM critical-question generator."""
    seed: int = 0
    timeout: float | None = None
    """Seconds one model call may take (None: each generator's own default)."""
    budget: float | None = DEFAULT_BUDGET_S
    """Seconds all the model calls of one ``ask`` may take together (None: no limit);
    when they run out, the parts still to come are written offline, and say why."""
    document: bool | None = None
    """Assess a question set with AURA: None decides by length."""

    @property
    def uses_llm(self) -> bool:
        """Whether a language model was named."""
        return bool(self.llm or self.base_url)


@dataclass(kw_only=True)
class Part:
    """One part of an ``ask`` result, as its generator gave it."""

    questions: list[dict[str, Any]]
    signature: str
    """The signature of the generator that wrote ``questions``."""
    origin: str
    """Which generator wrote the questions, in words (and why, when it stood in for
    the model)."""
    warnings: list[str] = field(default_factory=list)
    failure: str | None = None
    """Why the part fell short (None when it did not): the command exits with 1."""
    none: str | None = None
    """Where the part has no question: why, and what would help, in a line."""


def llm_args(options: AskOptions) -> dict[str, Any]:
    """The factory arguments that name the model of every LLM generator."""
    args: dict[str, Any] = {"llm": options.llm, "base_url": options.base_url, "seed": options.seed}
    if options.timeout is not None:  # unset: the generator keeps its own default
        args["timeout"] = options.timeout
    return args


def model_origin(signature) -> str:
    """A model generator's origin: the model's name from its signature."""
    model = getattr(signature, "model", None)
    return f"language model {model}" if model else "language model"
