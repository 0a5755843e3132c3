"""What every task's generator provides."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from maieutic.generate.fanout import FanOutStats
from maieutic.registry import Spec
from maieutic.signature import Signature


@dataclass
class GenerationRun:
    """The outcome of one generation run over a dataset."""

    outcomes: list[Any]
    """Per-item outcomes, in dataset order (task objects)."""
    stats: FanOutStats = field(default_factory=FanOutStats)
    """Model calls made and served from the cache (all zero for a model-free generator)."""
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Per-item remarks that are not failures ("2 questions instead of 3: …")."""


class Generator(Protocol):
    """Writes a task's output for every item of a dataset.

    ``run_index`` distinguishes repeated runs (each uses its own seeds); generators
    registered with ``@register("generator", TASK, NAME)`` carry their ``spec``.
    """

    spec: Spec
    uses_llm: bool

    def generate(
        self,
        dataset: Any,
        *,
        run_index: int = 0,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> GenerationRun:
        """Generate for every item of ``dataset``."""

    def signature(self, dataset: Any) -> Signature:
        """The signature of what this generator writes for ``dataset``."""
