"""The engine one generation run goes through: the generator itself in this process
(``local``), or Ray (``ray``) with shards beside the output."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import shutil
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from maieutic.engines import RayOptions, check_engine
from maieutic.engines.context import EngineChoice

if TYPE_CHECKING:
    from maieutic.core.task_io import RecordContext
    from maieutic.generate.protocol import GenerationRun


class GeneratingFor(Protocol):
    """What a run is for: the task and its loaded input (a ``maieutic.run.Generation``
    has both; named here as a protocol so that the engine, below it, names it not)."""

    task: str
    data: Any


SPEED_ONLY = ("concurrency", "timeout", "retries")
"""Generator arguments that change how fast outputs come, never what they are."""


def shard_manifest(context: Any, *, component: Any, items: dict, run_index: int) -> dict:
    """What shards are made for: the signature, every generator argument that can change
    an output (a run resumed with other speed settings still uses its shards), and the
    ids in input order (shards are matched to rows by position)."""
    arguments = {k: v for k, v in component.spec.to_json()["args"].items() if k not in SPEED_ONLY}
    store = getattr(items, "store", None)  # a corpus: hashed from its store, never listed
    order = store.ids_digest() if store is not None else _ids_digest(items)
    return {
        "signature": str(context.signature),
        "generator": json.loads(json.dumps(arguments, default=str)),
        "ids": order,
        "run": run_index + 1,
    }


def _ids_digest(items: dict) -> str:
    return "sha256:" + hashlib.sha256("\n".join(items).encode("utf-8")).hexdigest()


def _drop_if_bare(folder: Path) -> None:
    """Remove a shard folder that a failed run left with nothing but its lock file."""
    from maieutic.engines.shard_lock import LOCK

    with contextlib.suppress(OSError):
        if [p.name for p in folder.iterdir()] == [LOCK]:
            shutil.rmtree(folder)
            if not any(folder.parent.iterdir()):
                folder.parent.rmdir()


def corpus_folder() -> Path:
    """Where a corpus run keeps its scratch store: under maieutic's home (on disk,
    where the caches are; the system's temporary folder may be memory), removed when
    the run's ``Generation`` is dropped or the process ends."""
    from maieutic.paths import maieutic_home

    return maieutic_home() / "corpus"


class Engine:
    """Runs one generation run; ``local`` calls the generator, ``ray`` fans it out."""

    def __init__(self, name: str, options: RayOptions | None = None) -> None:
        self.name = name
        self.options = options or RayOptions()
        self._locks: dict[int, Any] = {}

    @classmethod
    def for_name(cls, name: str | None, options: RayOptions | None = None) -> Engine:
        """The engine called ``name`` (checked: known, and Ray installed for ``ray``)."""
        return cls(check_engine(name), options)

    def choice(self) -> EngineChoice:
        """Which engine, and how many model replicas it runs."""
        options = self.options
        return EngineChoice(
            name=self.name,
            actors=options.actors,
            num_cpus=options.num_cpus,
            gpus_per_actor=options.gpus_per_actor,
        )

    def piece_mapper(self) -> Any:
        """What an evaluator's encoders encode through (``maieutic.embed.encoder.
        mapping_pieces``): Ray's model replicas, or None for this process."""
        if self.name != "ray":
            return None
        from maieutic.engines.ray_encode import ray_piece_mapper

        return ray_piece_mapper(self.choice())

    def provenance(self, options: dict[str, Any]) -> dict[str, Any]:
        """The provenance record of a run with ``options``, naming this engine."""
        from maieutic.provenance import provenance

        return {**provenance(options), "engine": self.describe()}

    def describe(self) -> dict[str, Any]:
        """What the provenance records (never the signature: the engine changes no
        number)."""
        if self.name == "local":
            return {"name": "local"}
        return {"name": "ray", **asdict(self.options)}

    def run(
        self,
        generation: GeneratingFor,
        component: Any,
        run_index: int,
        *,
        update: Callable[[int, int], None],
        context: RecordContext,
        out: str | Path | None,
    ) -> GenerationRun:
        """One run of ``component`` over the generation's input."""
        from maieutic.core import get_task
        from maieutic.core.task_io import task_io

        io = task_io(get_task(generation.task))
        if self.name == "local":
            return component.generate(
                io.generator_input(generation.data), run_index=run_index, on_progress=update
            )
        on_ray = functools.partial(
            self._on_ray,
            io,
            data=generation.data,
            component=component,
            run_index=run_index,
            update=update,
            context=context,
        )
        if out is None:
            return on_ray(folder=None)
        from maieutic.engines.shard_lock import lock_folder
        from maieutic.engines.shards import shard_folder

        folder = shard_folder(Path(out), run_index)
        # held until written() has removed the shards: one run at a time writes them
        self._locks[run_index] = lock_folder(folder, out=Path(out))
        try:
            return on_ray(folder=folder)
        except BaseException:
            _drop_if_bare(folder)  # while still locked: no other run is in it
            self._unlock(run_index)
            raise

    def _on_ray(
        self,
        io: Any,
        *,
        data: Any,
        component: Any,
        run_index: int,
        update: Callable[[int, int], None],
        context: RecordContext,
        folder: Path | None,
    ) -> GenerationRun:
        from maieutic.engines.ray_generate import generate_on_ray

        items = io.items(data)
        manifest = shard_manifest(context, component=component, items=items, run_index=run_index)
        arguments = {
            "run_index": run_index,
            "folder": folder,
            "manifest": manifest,
            "options": self.options,
            "on_progress": update,
        }
        store = getattr(items, "store", None)
        if store is not None:  # a corpus read into a store: never held whole
            from maieutic.engines.ray_corpus import generate_corpus_on_ray

            return generate_corpus_on_ray(
                io, component=component, data=data, store=store, **arguments
            )
        return generate_on_ray(io, component=component, data=data, **arguments)

    def release(self, run_index: int) -> None:
        """Drop run ``run_index``'s shard lock and keep its shards: writing its files
        failed, and a retry (in this process or another) resumes from them."""
        self._unlock(run_index)

    def _unlock(self, run_index: int) -> None:
        lock = self._locks.pop(run_index, None)
        if lock is not None:
            lock.release()

    def written(self, out: str | Path, run_index: int) -> None:
        """After a run's files are written: its shards are no longer needed."""
        if self.name != "ray":
            return
        from maieutic.engines.shards import shard_folder

        folder = shard_folder(Path(out), run_index)
        shutil.rmtree(folder, ignore_errors=True)
        self._unlock(run_index)
        if folder.parent.is_dir() and not any(folder.parent.iterdir()):
            with contextlib.suppress(OSError):  # another run may have made its folder
                folder.parent.rmdir()
