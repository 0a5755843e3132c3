"""Generation on Ray Data: the task's items as rows, the generator rebuilt from its
``Spec`` in a pool of actors, each batch generated as the in-process engine would
generate it, finished rows written as shards as they arrive.

Ray Data streams the rows through the actors (``map_batches``) and back to the driver
(``iter_batches``), in input order; the driver writes each batch as a shard, so a run
killed at any point loses at most the batches in flight. Model calls go through each
actor's own client (the same prompts, reply parsing, retries, cache and selection), so
the engine changes how fast rows are done, never what is written for them.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from maieutic.engines import RayOptions
from maieutic.engines.codec import from_plain, to_plain
from maieutic.engines.ray_session import (
    actor_pool_options,
    enter_environment,
    start_ray,
    worker_environment,
)
from maieutic.engines.shards import finished, open_folder, read_rows, succeeded, write_shard
from maieutic.generate.fanout import FanOutStats
from maieutic.generate.protocol import GenerationRun


class _GenerateBatch:
    """A Ray actor: one generator, rebuilt from its spec, generating batches of rows
    through the task's I/O hooks (handed over resolved: an actor looks no task up)."""

    def __init__(
        self, io: Any, *, spec: Any, template: Any, run_index: int, env: dict, whole: Any
    ) -> None:
        self.io, self.spec, self.template_plain = io, spec, template
        self.run_index, self.env, self.whole = run_index, env, whole
        self.generator: Any = None

    def _build(self) -> None:
        # built on the first batch, in the thread that runs batches: the model client's
        # cache connection belongs to the thread that opens it
        enter_environment(self.env)
        from maieutic.registry import rebuild

        self.generator = rebuild(self.spec)
        if self.whole is not None:  # the whole input's few-shot pool, warnings…
            self.generator.whole_input = self.whole
        self.template = from_plain(self.template_plain)

    def __call__(self, batch: Any) -> Any:
        import pandas as pd

        rows = batch.to_dict("records")
        if self.generator is None:
            self._build()
        try:
            done = self._generate(rows)
        except Exception:  # one bad row must not fail its batch: try each alone
            done = [self._one(row) for row in rows]
        return pd.DataFrame(done)

    def _one(self, row: dict) -> dict:
        try:
            return self._generate([row])[0]
        except Exception as exc:  # recorded with its reason; the run goes on
            reason = f"{type(exc).__name__}: {exc}".strip()
            return _row(
                row,
                None,
                reason,
                stats=FanOutStats(),
                warnings=[],
                notes=[],
                trace=traceback.format_exc(limit=3),
            )

    def _generate(self, rows: list[dict]) -> list[dict]:
        items = {row["id"]: from_plain(json.loads(row["item"])) for row in rows}
        dataset = self.io.with_items(self.template, items)
        run = self.generator.generate(
            self.io.generator_input(dataset), run_index=self.run_index, on_progress=_silent
        )
        groups = self.io.outcome_groups(run, len(rows))
        if len(groups) != len(rows):
            raise RuntimeError(f"{len(groups)} outcome groups for {len(rows)} rows")
        out = []
        for n, (row, group) in enumerate(zip(rows, groups, strict=True)):
            # the batch's counts, warnings and notes ride on its first row
            first = n == 0
            out.append(
                _row(
                    row,
                    group,
                    None,
                    stats=run.stats if first else FanOutStats(),
                    warnings=run.warnings if first else [],
                    notes=run.notes if first else [],
                )
            )
        return out


def _silent(*_: int) -> None:
    """A progress callback ``(done, total)`` that shows nothing (an actor has no terminal)."""
    return None


def _row(
    row: dict,
    outcome: Any,
    error: str | None,
    *,
    stats: FanOutStats,
    warnings: list[str],
    notes: list[str],
    trace: str | None = None,
) -> dict:
    return {
        "index": int(row["index"]),
        "id": str(row["id"]),
        "outcome": json.dumps(to_plain(outcome), ensure_ascii=False),
        "error": error,
        # an outcome that failed (a model call that failed for good) is written as the
        # in-process engine writes it, and tried again by a resumed run
        "failed": bool(outcome) and any(getattr(o, "failed", False) for o in outcome),
        "trace": trace,
        "stats": json.dumps([stats.requests, stats.cache_hits, stats.failed]),
        # what reached the model now: for the driver's count, never written in a shard
        # (a resumed run must not count a kept row's requests as its own)
        "sent": stats.sent,
        "warnings": json.dumps(warnings, ensure_ascii=False),
        "notes": json.dumps(notes, ensure_ascii=False),
    }


def generate_on_ray(
    io: Any,
    *,
    component: Any,
    data: Any,
    run_index: int,
    folder: Path | None,
    manifest: dict[str, Any],
    options: RayOptions,
    on_progress: Callable[[int, int], None],
) -> GenerationRun:
    """One run of ``component`` over ``data``'s items on Ray (``io``: the task's
    ``TaskIO``, resolved by the run layer); with ``folder``, finished rows are written
    there as shards and a resumed run skips them."""
    items = io.items(data)
    keys = list(items)
    kept: dict[int, dict] = {}
    if folder is not None:
        open_folder(folder, manifest)
        kept = finished(read_rows(folder, lambda i: keys[i] if i < len(keys) else None))
    todo = [i for i in range(len(keys)) if i not in kept or not succeeded(kept[i])]
    done = len(keys) - len(todo)
    on_progress(done, len(keys))
    now = FanOutStats()
    if todo:
        rows = [_input_row(i, keys[i], items[keys[i]]) for i in todo]
        actor = actor_arguments(component, io=io, data=data, run_index=run_index)
        for shard in _finished_batches(rows, actor, options, now=now):
            if folder is not None:
                write_shard(folder, shard)
            kept.update(
                finished([*(kept[r["index"]] for r in shard if r["index"] in kept), *shard])
            )
            done += len(shard)
            on_progress(done, len(keys))
    run = _merged_run(io, component=component, items=items, kept=kept)
    run.this_run = now
    return run


def actor_arguments(component: Any, *, io: Any, data: Any, run_index: int) -> dict:
    """What each actor is built with: the task's I/O hooks, the generator's spec, the
    input with no items (each batch fills it), the run, the driver's environment, the
    whole-input context."""
    return {
        "io": io,
        "spec": component.spec,
        "template": to_plain(io.with_items(data, {})),
        "run_index": run_index,
        "env": worker_environment(),
        "whole": _whole_input(component, io=io, data=data),
    }


def _whole_input(component: Any, *, io: Any, data: Any) -> Any:
    """What a generator takes from its whole input (a few-shot pool drawn from it, the
    texts never to show as examples, warnings that count it), computed once here so
    that every batch generates as the whole run would."""
    context_for = getattr(component, "context_for", None)
    return None if context_for is None else context_for(io.generator_input(data))


def _input_row(index: int, key: str, item: Any) -> dict[str, Any]:
    return {"index": index, "id": key, "item": json.dumps(to_plain(item), ensure_ascii=False)}


def batch_rows(actor: dict, options: RayOptions) -> int:
    """Rows per batch an actor generates at once (default: 8 × its concurrency)."""
    return options.batch_rows or 8 * int(actor["spec"].args.get("concurrency") or 4)


def _finished_batches(
    rows: list[dict], actor: dict, options: RayOptions, *, now: FanOutStats
) -> Iterator[list[dict]]:
    """The rows as the actors finish them, in input order, ``shard_rows`` at a time;
    their model calls added to ``now``."""
    ray = start_ray(options.num_cpus)
    # one block per batch: a block is one task, so an actor can take several at once
    blocks = max(1, -(-len(rows) // batch_rows(actor, options)))
    source = ray.data.from_items(rows, override_num_blocks=blocks)
    yield from actor_batches(source, actor, options, blocks=blocks, now=now)


def actor_batches(
    source: Any, actor: dict, options: RayOptions, *, blocks: int, now: FanOutStats
) -> Iterator[list[dict]]:
    """``source``'s rows (a Ray dataset of ``blocks`` blocks: index, id, item) as the
    actors finish them, in input order, ``shard_rows`` at a time; their model calls
    added to ``now``. The pool has no more
    actors than blocks: an actor without a block would only load its model for
    nothing (and Ray warns of it)."""
    ray = start_ray(options.num_cpus)
    with actor_pool_options(source.map_batches) as pool_options:
        dataset = source.map_batches(
            _GenerateBatch,
            fn_constructor_kwargs=actor,
            batch_size=batch_rows(actor, options),
            batch_format="pandas",
            compute=ray.data.ActorPoolStrategy(size=max(1, min(options.actors, blocks))),
            num_cpus=options.cpus_per_actor,
            num_gpus=options.gpus_per_actor or None,
            **pool_options,
        )
    for batch in dataset.iter_batches(batch_size=options.shard_rows, batch_format="pandas"):
        yield _counted([_decoded(r) for r in batch.to_dict("records")], now)


def _decoded(row: dict) -> dict:
    return {
        "index": int(row["index"]),
        "id": row["id"],
        "outcome": json.loads(row["outcome"]),
        "error": row["error"] if isinstance(row["error"], str) else None,
        "failed": bool(row["failed"]),
        "trace": row["trace"] if isinstance(row["trace"], str) else None,
        "stats": json.loads(row["stats"]),
        "warnings": json.loads(row["warnings"]),
        "notes": json.loads(row["notes"]),
        "sent": int(row["sent"]),
    }


def _counted(rows: list[dict], now: FanOutStats) -> list[dict]:
    """``rows`` as the actors returned them, their counts added to ``now`` (this run's)
    and the count of requests sent taken out (a shard row has no such field)."""
    for row in rows:
        requests, hits, failed = row["stats"]
        now.add(
            FanOutStats(requests=requests, cache_hits=hits, failed=failed, sent=row.pop("sent"))
        )
    return rows


def _merged_run(io: Any, *, component: Any, items: dict[str, Any], kept: dict) -> GenerationRun:
    """The run as the in-process engine returns it: outcomes in input order, counts
    summed, warnings once each; a row that failed gets the task's failed outcomes."""
    stats = FanOutStats()
    warnings: list[str] = []
    notes: list[str] = []
    groups = []
    for index, (key, item) in enumerate(items.items()):
        row = kept[index]
        requests, hits, failed = row["stats"]
        stats.add(FanOutStats(requests=requests, cache_hits=hits, failed=failed))
        warnings += [w for w in row["warnings"] if w not in warnings]
        notes += row["notes"]
        if row.get("error") is not None:
            groups.append(io.failed_outcomes(component, key, item, reason=row["error"]))
        else:
            groups.append(from_plain(row["outcome"]))
    return GenerationRun(
        outcomes=io.merged_outcomes(groups), stats=stats, warnings=warnings, notes=notes
    )
