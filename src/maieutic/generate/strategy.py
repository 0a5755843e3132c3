"""Prompting strategies: named ways of writing the chat messages for one item.

A task's strategy is a function from (item, the task's prompt context) to the user
prompt; the task's system prompt comes before it. ``register_strategies`` enters each
under ``("strategy", TASK, NAME)``, so a generator builds one by name
(``create("strategy", TASK, NAME)``) and its spec records which.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from maieutic.registry import register

ItemT = TypeVar("ItemT")
ContextT = TypeVar("ContextT")


@dataclass
class Strategy(Generic[ItemT, ContextT]):
    """A named way of prompting: the chat messages for one item."""

    name: str
    user_prompt: Callable[[ItemT, ContextT], str]
    system: str
    """The task's system prompt, sent before every user prompt."""

    def messages(self, item: ItemT, context: ContextT) -> list[dict[str, str]]:
        """The chat messages for ``item``."""
        return [
            {"role": "system", "content": self.system},
            {"role": "user", "content": self.user_prompt(item, context)},
        ]


def register_strategies(
    task: str,
    *,
    system: str,
    prompts: Iterable[tuple[str, Callable[[ItemT, ContextT], str], str]],
) -> None:
    """Register each ``(name, user prompt, one-line description)`` of ``prompts`` as a
    strategy of ``task`` with the system prompt ``system``."""
    for name, user_prompt, doc in prompts:
        factory = _factory(name=name, user_prompt=user_prompt, system=system, doc=doc)
        register("strategy", task=task, name=name)(factory)


def _factory(
    *, name: str, user_prompt: Callable[[ItemT, ContextT], str], system: str, doc: str
) -> Callable[[], Strategy[ItemT, ContextT]]:
    def factory() -> Strategy[ItemT, ContextT]:
        return Strategy(name, user_prompt, system)

    factory.__doc__ = doc  # the registry's description of the strategy
    return factory
