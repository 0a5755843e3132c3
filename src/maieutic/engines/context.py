"""The engine in force for work done deep inside an evaluator (its sentence embeddings),
set by ``maieutic.evaluate(engine=...)`` for the length of the call."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class EngineChoice:
    """Which engine, and how many replicas of a model it runs."""

    name: str = "local"
    actors: int = 2
    num_cpus: int | None = None
    gpus_per_actor: float = 0.0


LOCAL = EngineChoice()
_CURRENT: contextvars.ContextVar[EngineChoice] = contextvars.ContextVar(
    "maieutic_engine",
    default=LOCAL,  # frozen: never mutated
)


def current_engine() -> EngineChoice:
    """The engine in force (``local`` outside ``using_engine``)."""
    return _CURRENT.get()


@contextlib.contextmanager
def using_engine(choice: EngineChoice) -> Iterator[None]:
    """Run the body with ``choice`` in force."""
    token = _CURRENT.set(choice)
    try:
        yield
    finally:
        _CURRENT.reset(token)
