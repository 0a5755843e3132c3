"""How a component reaches its language model, in one place: the model, the server, and
how calls are made. Every registered factory that calls a model takes these as plain
keyword arguments (so a results file's ``Spec`` rebuilds it) with these defaults, and
gathers them into one ``LLMOptions`` to build its client; the command line's options
show the same defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from maieutic.llm.backends.factory import make_backend
from maieutic.llm.client import LLMClient, RetryPolicy
from maieutic.llm.store import CallStore


@dataclass(frozen=True, kw_only=True)
class LLMOptions:
    """The language model and how it is called (by keyword: ``concurrency`` and
    ``retries`` are both counts, and swapped they would pass unnoticed)."""

    llm: str | None = None
    """The model: None for the embedded one, a name at ``base_url``, a GGUF file…"""
    base_url: str | None = None
    llm_backend: str = "auto"
    concurrency: int = 4
    timeout: float = 120.0
    """Seconds per call attempt."""
    retries: int = 4

    @classmethod
    def of(cls, arguments: Mapping[str, object]) -> LLMOptions:
        """The options among a factory's arguments (``LLMOptions.of(locals())``): the
        factory keeps its flat parameters, which its ``Spec`` records, and names each
        field once."""
        return cls(**{f.name: arguments[f.name] for f in fields(cls)})  # type: ignore[arg-type]

    @classmethod
    def defaults_of(cls, kind: str, *, task: str, name: str) -> LLMOptions:
        """The defaults of a registered factory (one that waits longer per call…)."""
        from maieutic.registry import factory_defaults

        found = factory_defaults(kind, task=task, name=name)
        return cls(**{f.name: found.get(f.name, f.default) for f in fields(cls)})

    def client(self) -> LLMClient:
        """The shared client (cache, log, retries) for this model."""
        backend = make_backend(self.llm_backend, model=self.llm, base_url=self.base_url)
        return LLMClient(
            backend,
            CallStore(),
            concurrency=self.concurrency,
            timeout_s=self.timeout,
            retry=RetryPolicy(retries=self.retries),
        )


LLM_DEFAULTS = LLMOptions()
"""The defaults every factory and the command line use."""
