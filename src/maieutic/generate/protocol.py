"""What every task's generator provides."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from maieutic.generate.fanout import FanOutStats
from maieutic.registry import Spec
from maieutic.signature import Signature


@dataclass(kw_only=True)
class GenerationRun:
    """The outcome of one generation run over a dataset."""

    outcomes: list[Any]
    """Per-item outcomes, in dataset order (task objects)."""
    stats: FanOutStats = field(default_factory=FanOutStats)
    """Model calls made and served from the cache (all zero for a model-free generator),
    over every item of the output: a resumed Ray run counts the rows it kept as the run
    that made them counted them, so its record says what a clean run's says."""
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Per-item remarks that are not failures ("2 questions instead of 3: …")."""
    this_run: FanOutStats | None = None
    """What this process did, where it differs from ``stats`` (a resumed Ray run: the
    rows kept from the killed run cost nothing now)."""

    @property
    def calls_now(self) -> FanOutStats:
        """The model calls this process made (what a command reports)."""
        return self.stats if self.this_run is None else self.this_run


class Generator(Protocol):
    """Writes a task's output for every item of a dataset.

    ``run_index`` distinguishes repeated runs (each uses its own seeds); generators
    registered with ``@register("generator", task=TASK, name=NAME)`` carry their ``spec``.
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
