"""``maieutic.generate``: run any task's generator from Python, the way ``maieutic
generate TASK`` does, and get back what it writes — the generated records and the
generation record (signature, generator spec, provenance, failures) of each file."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from maieutic.core import get_task
from maieutic.core.task_io import GeneratedPart, RecordContext, task_io
from maieutic.data import guard
from maieutic.data.flags import Flag, refuse_flags
from maieutic.engines import RayOptions
from maieutic.errors import DataError
from maieutic.generate.fanout import FanOutStats
from maieutic.generate.protocol import GenerationRun
from maieutic.registry import Spec
from maieutic.run.components import build
from maieutic.run.engine import Engine, corpus_folder
from maieutic.run.frames import records_frame
from maieutic.run.inputs import described, is_path, refuse_generating_over
from maieutic.signature import Signature

if TYPE_CHECKING:
    import pandas as pd

Progress = Callable[[str], contextlib.AbstractContextManager[Callable[[int, int], None]]]
"""A progress display: ``progress(label)`` is a context yielding ``update(done, total)``
(``maieutic.progress.progress`` is one)."""


@dataclass(kw_only=True)
class Generation:
    """What one generator wrote for one input, in one or more runs."""

    task: str
    generator: Spec
    """How the generator was built (``maieutic.registry.rebuild`` makes it again)."""
    signature: Signature
    parts: list[GeneratedPart]
    """Each file's output and generation record (one per run, or per scenario…)."""
    runs: list[GenerationRun]
    """The raw runs: per-item outcomes, model-call counts, warnings and notes."""
    flags: list[Flag] = field(default_factory=list)
    """What the input holds that was generated for but is worth a warning."""
    warnings: list[str] = field(default_factory=list)
    uses_llm: bool = False
    data: Any = field(default=None, repr=False)
    """The input as loaded."""
    written: list[Path] = field(default_factory=list)
    """The outputs written (by ``generate(out=…)`` or ``save``)."""

    @property
    def output(self) -> Any:
        """The generated output, when there is one part (else see ``parts``)."""
        return self._single().output

    @property
    def record(self) -> dict[str, Any]:
        """The generation record, when there is one part (else see ``parts``)."""
        return self._single().record

    def _single(self) -> GeneratedPart:
        if len(self.parts) != 1:
            raise DataError(f"{len(self.parts)} parts were generated: read them from .parts")
        return self.parts[0]

    @property
    def failed(self) -> list[tuple[int, Any]]:
        """(run index, outcome) of every item that got nothing (a failed model call…)."""
        return [(k, o) for k, run in enumerate(self.runs) for o in run.outcomes if o.failed]

    @property
    def stats(self) -> FanOutStats:
        """Model calls made, served from the cache and failed, over every run."""
        total = FanOutStats()
        for run in self.runs:
            total.add(run.stats)
        return total

    @property
    def calls_now(self) -> FanOutStats:
        """The model calls this process made, over every run (what a command reports:
        a resumed Ray run's kept rows made none now)."""
        total = FanOutStats()
        for run in self.runs:
            total.add(run.calls_now)
        return total

    def to_frame(self, explode: str | None = None) -> pd.DataFrame:
        """One row per item outcome of every run (see ``records_frame``)."""
        rows = (
            {"run": k + 1, **_outcome_record(outcome)}
            for k, run in enumerate(self.runs)
            for outcome in run.outcomes
        )
        return records_frame(rows, explode, max_level=0)

    def save(self, out: str | Path, **options: Any) -> list[Path]:
        """Write the outputs and their ``.meta.json`` records in the task's layout (as
        ``maieutic generate TASK --out OUT`` does); the paths of the outputs."""
        paths = task_io(get_task(self.task)).write(self, Path(out), **options)
        self.written += paths
        return paths


def _outcome_record(outcome: Any) -> dict[str, Any]:
    """An outcome's fields; a field that is itself a record (the question answered) is
    spread into ``field.key`` columns, while mappings keyed by data stay one cell."""
    if not dataclasses.is_dataclass(outcome):
        return outcome.to_json() if hasattr(outcome, "to_json") else {"outcome": outcome}
    row: dict[str, Any] = {}
    for f in dataclasses.fields(outcome):
        value = getattr(outcome, f.name)
        if dataclasses.is_dataclass(value):
            row.update({f"{f.name}.{k}": v for k, v in dataclasses.asdict(value).items()})
        elif isinstance(value, list):
            row[f.name] = [_plain(v) for v in value]
        else:
            row[f.name] = value
    return row


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return value.to_json() if hasattr(value, "to_json") else dataclasses.asdict(value)
    return value


@contextlib.contextmanager
def _quiet(label: str) -> Iterator[Callable[[int, int], None]]:
    yield lambda done, total: None


def _call_options(task: str, data: Any, *, generator: Any, options: dict) -> dict[str, Any]:
    """The call, as the provenance of what it writes records it."""
    call = {"task": task, "data": data, "generator": generator, **options}
    return {**described(call), "via": "maieutic.generate"}


def _run_all(
    generation: Generation,
    component: Any,
    context: RecordContext,
    *,
    runs: int,
    progress: Progress | None,
    writing: tuple[str | Path | None, dict[str, Any]],
    engine: Engine,
) -> None:
    """Every run of ``component``, added to ``generation`` with the parts it yields;
    with ``out``, each run's files are written as soon as it ends (a later failure
    loses nothing already generated)."""
    io = task_io(get_task(generation.task))
    out, write_options = writing
    for k in range(runs):
        label = f"run {k + 1}/{runs}" if runs > 1 else "generating"
        with (progress or _quiet)(label) as update:
            run = engine.run(generation, component, k, update=update, context=context, out=out)
        try:
            parts = io.parts(
                run, generation.data, dataclasses.replace(context, run_index=k, n_runs=runs)
            )
            generation.runs.append(run)
            generation.parts += parts
            if out is not None:
                this_run = dataclasses.replace(generation, runs=[run], parts=parts)
                generation.written += io.write(this_run, Path(out), **write_options)
                engine.written(out, k)
        except BaseException:
            engine.release(k)  # the shards stay for a retry; the lock must not
            raise


def _corpus(engine: Engine, out: str | Path | None) -> Path | None:
    """Where a corpus is streamed to (on Ray, with an output to write), else None."""
    return corpus_folder() if engine.name == "ray" and out is not None else None


def _input(task, data, limit, *, options, on_flags, strict, corpus) -> tuple[Any, list[Flag]]:
    """The input, loaded and cut to ``limit`` (read a record at a time into a store in
    the ``corpus`` folder, when given and the task can), and its flags (refused when
    ``strict``)."""
    found = get_task(task)
    io = task_io(found)
    loaded = None
    if corpus is not None and is_path(data) and io.streams:
        from maieutic.engines.corpus import CorpusStore

        loaded = io.stream_input(found, data, CorpusStore(corpus), limit=limit)
    if loaded is None:  # in memory (not a corpus run, or a layout read whole)
        loaded = io.read_generation_input(found, data) if is_path(data) else data
        if limit:
            loaded = io.first(loaded, limit)
    flags = io.input_flags(loaded, options)
    if on_flags:
        on_flags(flags)
    if strict:
        refuse_flags(flags)
    return loaded, flags


@guard.scoped
def generate(
    task: str,
    data: Any,
    *,
    generator: Any = None,
    runs: int = 1,
    limit: int | None = None,
    strict: bool = False,
    out: str | Path | None = None,
    progress: Progress | None = None,
    on_flags: Callable[[list[Flag]], None] | None = None,
    provenance: dict[str, Any] | None = None,
    engine: str = "local",
    ray: RayOptions | None = None,
    write_options: dict[str, Any] | None = None,
    **options: Any,
) -> Generation:
    """Generate for ``data`` (a path, or the input already loaded) with the generator
    registered as ``generator`` for ``task`` (or one already built with
    ``maieutic.registry.create``, then given no options).

    ``options`` are the generator's factory arguments (``llm``, ``base_url``,
    ``strategies``…). ``runs`` repeats the run with fresh seeds; ``limit`` keeps the
    first N items; ``strict`` refuses flagged input before any model work; ``out``
    writes each run's outputs as it ends, as the command line does (see
    ``Generation.save``); ``progress`` shows each run's progress; ``on_flags`` sees
    what the input holds that is worth a warning (before ``strict`` refuses it);
    ``provenance`` replaces the options recorded. ``engine="ray"`` runs the generator
    on Ray (``ray``: how; see ``maieutic.engines``): the same files, written as shards
    first so that a killed run resumes; the engine is recorded in the provenance.
    ``write_options`` go to the task's writer with ``out`` (as to ``Generation.save``).
    """
    if runs < 1:
        raise DataError("runs must be at least 1")
    chosen = Engine.for_name(engine, ray)
    if out is not None and str(out) == "-":
        raise DataError("out must be a path: the outputs get a .meta.json record beside them")
    refuse_generating_over(out, [data])
    io = task_io(get_task(task))
    loaded, flags = _input(
        task,
        data,
        limit,
        options=options,
        on_flags=on_flags,
        strict=strict,
        corpus=_corpus(chosen, out),
    )
    component, warnings = build("generator", task=task, name=generator, options=options)
    signature = component.signature(io.generator_input(loaded))
    recorded = chosen.provenance(
        provenance or _call_options(task, data, generator=generator, options=options)
    )
    generation = Generation(
        task=task,
        generator=component.spec,
        signature=signature,
        parts=[],
        runs=[],
        flags=flags,
        warnings=[*getattr(loaded, "warnings", []), *(f.short for f in flags), *warnings],
        uses_llm=bool(getattr(component, "uses_llm", False)),
        data=loaded,
    )
    context = RecordContext(task, signature, component.spec, provenance=recorded, flags=flags)
    writing = (out, write_options or {})
    _run_all(
        generation, component, context, runs=runs, progress=progress, writing=writing, engine=chosen
    )
    generation.warnings += generation.runs[0].warnings
    return generation
