"""Where generation and evaluation run: in this process (``local``, the default) or
on a Ray cluster (``ray``: a local Ray instance, or the cluster ``RAY_ADDRESS`` names).

The engine never changes a number: the same generator or evaluator, rebuilt from its
``Spec`` in each Ray worker, does the same work on each item; the engine is recorded in
the provenance of what is written, never in its signature.
"""

from __future__ import annotations

from dataclasses import dataclass

from maieutic.errors import DataError


@dataclass(kw_only=True)
class RayOptions:
    """How a Ray run is laid out."""

    actors: int = 2
    """Generator replicas (each its own process, model client and cache connection)."""
    batch_rows: int | None = None
    """Rows one actor generates at a time (its model client fans their calls out);
    default: 8 × the generator's concurrency, so that waiting on the model, not the
    parsing after the replies, fills an actor's time."""
    shard_rows: int = 256
    """Rows per shard file (and between two progress updates)."""
    cpus_per_actor: float = 1.0
    """CPUs Ray reserves per actor (an actor mostly waits on the model: below 1 packs
    more actors on a node)."""
    gpus_per_actor: float = 0.0
    """GPUs Ray gives each actor (an embedding model's actors encode on them; with 0,
    Ray hides the GPUs from the actors and they encode on the CPU)."""
    num_cpus: int | None = None
    """CPUs of a local Ray instance (ignored when joining a cluster)."""


ENGINES = ("local", "ray")
"""The engines a run can use."""


def check_engine(engine: str | None) -> str:
    """``engine`` (default ``local``), refused with one line when unknown or when Ray is
    not installed."""
    engine = engine or "local"
    if engine not in ENGINES:
        raise DataError(f"unknown engine {engine!r}: one of {', '.join(ENGINES)}")
    if engine == "ray":
        try:
            import ray.data  # noqa: F401 (Ray without its [data] part fails here)
        except ImportError:
            raise DataError("the ray engine needs Ray: pip install 'maieutic[ray]'") from None
    return engine
