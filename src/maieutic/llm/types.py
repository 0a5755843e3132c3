"""Plain data types shared by the LLM client and its backends."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

EMPTY_REPLY = "empty content in the reply"
"""The reason of a reply with no text (retried with another seed: ``after_empty``)."""
RETRY_SEED_STEP = 1_000_003
"""How far apart the seeds of retries after empty replies are (a prime, far beyond any
sample index)."""
SEED_RANGE = 2**31
"""Seeds stay below this: what every OpenAI-compatible server and llama.cpp accept."""


@dataclass(frozen=True, kw_only=True)
class GenerationParams:
    """Settings that change what a model writes (and so belong in the cache key)."""

    temperature: float = 0.0
    top_p: float = 1.0
    max_tokens: int = 256
    seed: int | None = 0

    def for_sample(self, sample_index: int) -> GenerationParams:
        """The parameters of the ``sample_index``-th draw: its own seed, when seeded."""
        seed = None if self.seed is None else self.seed + sample_index
        return GenerationParams(
            temperature=self.temperature, top_p=self.top_p, max_tokens=self.max_tokens, seed=seed
        )

    def after_empty(self, retry: int) -> GenerationParams:
        """The parameters of the ``retry``-th try (1-based) after an empty reply: a seed
        of its own (the same seed draws the same empty reply again), the same in every
        run, far from the seeds of a request's other samples (``for_sample``). Unseeded
        parameters stay unseeded: the server draws a new seed on each try anyway."""
        if self.seed is None or retry == 0:
            return self
        return replace(self, seed=(self.seed + retry * RETRY_SEED_STEP) % SEED_RANGE)


@dataclass(frozen=True, kw_only=True)
class ChatRequest:
    """One chat call: messages, parameters, and which repeated draw this is."""

    messages: tuple[tuple[str, str], ...]
    params: GenerationParams = field(default_factory=GenerationParams)
    sample_index: int = 0
    tag: str = ""
    """Free text for the call log (e.g. the intervention id); not part of the cache key."""

    @staticmethod
    def of(messages: list[dict[str, str]], **kwargs: Any) -> ChatRequest:
        """Build from OpenAI-style ``[{"role", "content"}]`` messages."""
        return ChatRequest(messages=tuple((m["role"], m["content"]) for m in messages), **kwargs)

    def openai_messages(self) -> list[dict[str, str]]:
        """The messages in OpenAI's wire format."""
        return [{"role": role, "content": content} for role, content in self.messages]


@dataclass(frozen=True, kw_only=True)
class BackendReply:
    """What a backend returns for one call."""

    text: str
    model: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


@dataclass(frozen=True, kw_only=True)
class ChatResult:
    """A finished call as the client hands it out."""

    text: str
    model: str
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_s: float
    cached: bool
    key: str
    redacted: bool = False
    """Whether the reply held a secret (or a piece of one), now shown as ``***``."""


class TransientError(Exception):
    """A failure worth retrying (timeout, connection, 429/5xx, malformed or empty reply)."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class PermanentError(Exception):
    """A failure that retrying will not fix (bad request, authentication, unknown model)."""
