"""Which engine runs an evaluator's sentence embeddings, and how many model replicas:
the run layer builds an ``EngineChoice`` and hands the encoders a piece mapper made
from it (``maieutic.engines.ray_encode.ray_piece_mapper``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class EngineChoice:
    """Which engine, and how many replicas of a model it runs."""

    name: str = "local"
    actors: int = 2
    num_cpus: int | None = None
    gpus_per_actor: float = 0.0


LOCAL = EngineChoice()
