"""Model-free generators: one outcome per item of a dataset, in order.

A generator that calls no model (templates, cue words, claims) works out each item's
outcome on its own. ``PerItemGenerator`` is that ``Generator``: a task's subclass says
where the dataset keeps its items (``items``), what one item gives (``outcome``) and,
when the run says more than its outcomes, what (``finish``); progress is reported
after each item, as a fan-out reports model calls.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from maieutic.generate.protocol import GenerationRun
from maieutic.registry import Spec

KeyT = TypeVar("KeyT")
ItemT = TypeVar("ItemT")
OutcomeT = TypeVar("OutcomeT")


def outcomes_for(
    items: Mapping[KeyT, ItemT],
    outcome: Callable[[KeyT, ItemT], OutcomeT],
    on_progress: Callable[[int, int], None] | None = None,
) -> list[OutcomeT]:
    """``outcome(key, item)`` for every item of ``items``, in their order, calling
    ``on_progress(done, total)`` after each."""
    out: list[OutcomeT] = []
    for done, (key, item) in enumerate(items.items(), start=1):
        out.append(outcome(key, item))
        if on_progress:
            on_progress(done, len(items))
    return out


class PerItemGenerator(Generic[KeyT, ItemT, OutcomeT]):
    """A ``Generator`` that calls no model: ``outcome`` for every item of the dataset."""

    uses_llm = False
    spec: Spec

    def items(self, dataset: Any) -> Mapping[KeyT, ItemT]:
        """The dataset's items by key, in the order the outcomes are written."""
        raise NotImplementedError

    def outcome(self, key: KeyT, item: ItemT, *, run_index: int) -> OutcomeT:
        """What the generator writes for one item (``run_index`` counts repeated runs)."""
        raise NotImplementedError

    def finish(self, dataset: Any, outcomes: list[OutcomeT]) -> GenerationRun:
        """The run made of the outcomes (warnings and notes added where a task has any)."""
        return GenerationRun(outcomes=outcomes)

    def generate(
        self,
        dataset: Any,
        *,
        run_index: int = 0,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> GenerationRun:
        """``outcome`` for every item, in order, then ``finish``."""

        def outcome(key: KeyT, item: ItemT) -> OutcomeT:
            return self.outcome(key, item, run_index=run_index)

        return self.finish(dataset, outcomes_for(self.items(dataset), outcome, on_progress))
