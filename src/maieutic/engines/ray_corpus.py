"""Generation on Ray for a corpus held in a ``CorpusStore``: the driver's memory stays
flat in the number of texts.

The items go to the actors as Arrow blocks put in Ray's object store (which spills to
disk), one block per batch, read from the store a block at a time; finished rows are
written as shards (as ``ray_generate`` does) and kept in the store, and the run's
outcomes are read back from it in input order, when the files are written, never
held. What is generated for each row is exactly what ``ray_generate`` generates.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from maieutic.engines import RayOptions
from maieutic.engines.codec import from_plain
from maieutic.engines.corpus import CorpusStore
from maieutic.engines.ray_generate import actor_arguments, actor_batches, batch_rows
from maieutic.engines.ray_session import start_ray
from maieutic.engines.shards import open_folder, read_rows, succeeded, write_shard
from maieutic.generate.fanout import FanOutStats
from maieutic.generate.protocol import GenerationRun

_READ_ROWS = 2000
"""Shard rows read into the store at a time on resume."""


def generate_corpus_on_ray(
    io: Any,
    *,
    component: Any,
    data: Any,
    store: CorpusStore,
    run_index: int,
    folder: Path | None,
    manifest: dict[str, Any],
    options: RayOptions,
    on_progress: Callable[[int, int], None],
) -> GenerationRun:
    """One run of ``component`` over the store's items on Ray (``data``: the task's
    input reading its items from the store); with ``folder``, finished rows are
    written there as shards and a resumed run skips them. ``io``: the task's
    ``TaskIO``, resolved by the run layer."""
    if folder is not None:
        open_folder(folder, manifest)
        _keep_shards(store, run_index, folder)
    total = len(store)
    done = total - store.n_pending(run_index)
    on_progress(done, total)
    now = FanOutStats()
    if done < total:
        actor = actor_arguments(component, io=io, data=data, run_index=run_index)
        ray = start_ray(options.num_cpus)
        blocks = list(_blocks(ray, store.pending(run_index), batch_rows(actor, options)))
        source = ray.data.from_arrow_refs(blocks)
        for shard in actor_batches(source, actor, options, blocks=len(blocks), now=now):
            if folder is not None:
                write_shard(folder, shard)
            store.finish(run_index, shard, succeeded)
            done += len(shard)
            on_progress(done, total)
    run = stored_run(io, component=component, store=store, run=run_index)
    run.this_run = now
    return run


def _keep_shards(store: CorpusStore, run_index: int, folder: Path) -> None:
    """The rows a killed run wrote, into the store (a few thousand at a time)."""
    rows: list[dict] = []
    for row in read_rows(folder, store.id_at):
        rows.append(row)
        if len(rows) >= _READ_ROWS:
            store.finish(run_index, rows, succeeded)
            rows = []
    store.finish(run_index, rows, succeeded)


def _blocks(ray: Any, pending: Iterator[tuple[int, str, str]], size: int) -> Iterator[Any]:
    """The pending items as object-store references to Arrow tables of ``size`` rows
    (index, id, item JSON): the driver holds one block at a time."""
    import pyarrow as pa

    block: list[tuple[int, str, str]] = []
    for row in pending:
        block.append(row)
        if len(block) == size:
            yield ray.put(_table(pa, block))
            block = []
    if block:
        yield ray.put(_table(pa, block))


def _table(pa: Any, block: list[tuple[int, str, str]]) -> Any:
    index, ids, items = zip(*block, strict=True)
    return pa.table({"index": pa.array(index, pa.int64()), "id": list(ids), "item": list(items)})


class StoredOutcomes:
    """A run's outcomes, read from the store in input order each time they are
    iterated (what ``GenerationRun.outcomes`` holds for a corpus run)."""

    streamed = True
    """Tells a task's writer to stream what it writes from these outcomes."""

    def __init__(self, io: Any, *, component: Any, store: CorpusStore, run: int, n: int) -> None:
        self.io, self.component, self.store, self.run, self.n = io, component, store, run, n

    def __iter__(self) -> Iterator[Any]:
        for key, item, row in self.store.finished(self.run):
            yield from _group(self.io, component=self.component, key=key, item=item, row=row)

    def __len__(self) -> int:
        return self.n

    def __bool__(self) -> bool:
        return self.n > 0


def _group(io: Any, *, component: Any, key: str, item: Any, row: dict) -> list[Any]:
    """One item's outcomes; a row that raised gets the task's failed outcomes."""
    if row.get("error") is not None:
        return io.failed_outcomes(component, key, from_plain(item), reason=row["error"])
    return from_plain(row["outcome"])


def stored_run(io: Any, *, component: Any, store: CorpusStore, run: int) -> GenerationRun:
    """The run as ``GenerationRun``: counts summed and warnings once each, read in one
    pass over the store; its outcomes read from the store when iterated."""
    stats = FanOutStats()
    warnings: list[str] = []
    notes: list[str] = []
    n = 0
    for key, item, row in store.finished(run):
        requests, hits, failed = row["stats"]  # as ray_generate stores them
        stats.add(FanOutStats(requests=requests, cache_hits=hits, failed=failed))
        warnings += [w for w in row["warnings"] if w not in warnings]
        notes += row["notes"]
        n += (
            len(_group(io, component=component, key=key, item=item, row=row))
            if row.get("error")
            else len(row["outcome"])
        )
    return GenerationRun(
        outcomes=StoredOutcomes(io, component=component, store=store, run=run, n=n),
        stats=stats,
        warnings=warnings,
        notes=notes,
    )
