"""Sentence embeddings on Ray Data: the texts an evaluation encodes, cut into the very
pieces the in-process encoder cuts them into, each piece encoded by an actor holding the
same model with the same thread count — so every vector is bit for bit the one this
process would compute."""

from __future__ import annotations

from typing import Any

import numpy as np

from maieutic.engines.ray_session import (
    actor_pool_options,
    enter_environment,
    start_ray,
    worker_environment,
)


class _EncodePiece:
    """A Ray actor holding one embedding model."""

    def __init__(
        self,
        model: str,
        *,
        backend: str,
        batch_size: int,
        device: str | None,
        env: dict,
        threads: int,
    ) -> None:
        enter_environment(env)
        import torch

        from maieutic.embed.encoder import Encoder

        # the driver's thread count: float sums are ordered by it (Ray would give an
        # actor one thread per CPU it reserves)
        torch.set_num_threads(threads)
        self.encoder = Encoder(model, backend=backend, batch_size=batch_size, device=device)

    def __call__(self, row: dict[str, Any]) -> dict[str, Any]:
        vectors = self.encoder.encode_piece(list(row["texts"]))
        return {"start": row["start"], "vectors": np.asarray(vectors, dtype=np.float32)}


def ray_piece_mapper(engine: Any) -> Any:
    """An encoder's piece mapper (``maieutic.embed.encoder.PieceMapper``) that encodes
    on Ray with ``engine``'s replicas (an ``EngineChoice``)."""

    def mapper(encoder: Any, texts: list[str], piece: int) -> np.ndarray:
        return encode_on_ray(encoder, texts, piece, engine=engine)

    return mapper


def encode_on_ray(encoder: Any, texts: list[str], piece: int, *, engine: Any):
    """The ``(n, dim)`` unit vectors of ``texts``, encoded on Ray by ``engine.actors``
    model replicas, one row per piece of ``piece`` texts (the in-process encoder's
    pieces: a row is never split or merged, so each model call sees the texts it would
    see here)."""
    if encoder.backend == "onnx":
        encoder.load()  # exported once, here: actors exporting at once would collide
    ray = start_ray(engine.num_cpus)
    rows = [{"start": s, "texts": texts[s : s + piece]} for s in range(0, len(texts), piece)]
    source = ray.data.from_items(rows)
    with actor_pool_options(source.map) as pool_options:
        dataset = source.map(
            _EncodePiece,
            fn_constructor_kwargs={
                "model": encoder.model_name,
                "backend": encoder.backend,
                "batch_size": encoder.batch_size,
                "device": encoder.device,
                "env": worker_environment(),
                "threads": _driver_threads(),
            },
            # no more replicas than pieces: a replica without a piece loads a model for nothing
            compute=ray.data.ActorPoolStrategy(size=max(1, min(engine.actors, len(rows)))),
            num_cpus=1,
            num_gpus=engine.gpus_per_actor or None,
            **pool_options,
        )
    parts = {int(row["start"]): row["vectors"] for row in dataset.iter_rows()}
    return np.concatenate([parts[s] for s in sorted(parts)]).astype(np.float32)


def _driver_threads() -> int:
    import torch

    return torch.get_num_threads()
