"""What the run layer and the engines ask of a task: how to read its files and write
what it generates. The contract sits beside ``Task`` (``maieutic.core.task``, field
``io``); the run layer
resolves a task's ``TaskIO`` and hands it to the engines, which never look a task up.

``TaskIO``'s defaults fit a task whose reference and submissions are one file each
(read by ``Task.load_reference`` and ``Task.load_submission``) and whose generator's
outcomes have a ``to_json``. A task whose files differ subclasses it in its own folder
and names an instance in ``Task(io=...)``; the run layer itself names no task.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from maieutic.data.files import write_together
from maieutic.data.flags import Flag
from maieutic.data.json_stream import json_chunks
from maieutic.errors import DataError
from maieutic.generate.protocol import GenerationRun
from maieutic.records.generation import GenerationRecord
from maieutic.registry import Spec
from maieutic.signature import Signature

__all__ = [
    "DEFAULT_IO",
    "GeneratedPart",
    "ReadsReference",
    "RecordContext",
    "TaskIO",
    "meta_path",
    "task_io",
]


class ReadsReference(Protocol):
    """What ``TaskIO`` reads a task's files with: its reference reader (a ``Task``
    has one; named here as a protocol so that this module, below ``Task``, names it
    not)."""

    def load_reference(self, path: str | Path, /) -> Any: ...


def meta_path(path: Path) -> Path:
    """The sidecar that records how a generated file was made (``NAME.meta.json``)."""
    return path.with_name(f"{path.stem}.meta.json")


@dataclass
class GeneratedPart:
    """One file's worth of generated output and the record written beside it."""

    name: str
    """Which part: ``""`` for the only one, ``run2`` for a repeated run, a scenario…"""
    output: Any
    """What is written (the submission, prediction set, question list or answers)."""
    record: dict[str, Any]
    """The generation record (``.meta.json``): signature, generator, provenance…"""


@dataclass
class RecordContext:
    """What every generation record says, handed to the task's ``parts`` hook."""

    task: str
    signature: Signature
    generator: Spec
    _: KW_ONLY
    provenance: dict[str, Any]
    run_index: int = 0
    n_runs: int = 1
    flags: list[Flag] = field(default_factory=list)

    def record(
        self,
        run: GenerationRun,
        details: dict[str, Any] | None = None,
        *,
        model_calls: bool = True,
        warnings: list[str] | None = None,
        failed: dict[str, Any] | list[Any] | None = None,
    ) -> dict[str, Any]:
        """The generation record of one file (``maieutic.generation/3``) as written:
        what every task's record says, the run's model calls (unless ``model_calls`` is
        False), ``warnings`` and ``failed`` where given, then the task's own
        ``details``."""
        calls = {"made": run.stats.model_calls, "cache_hits": run.stats.cache_hits}
        return GenerationRecord(
            task=self.task,
            signature=self.signature.as_dict(),
            signature_string=str(self.signature),
            generator=self.generator,
            provenance=self.provenance,
            model_calls=calls if model_calls else None,
            warnings=warnings,
            failed=failed,
            extra_fields=details or {},
        ).to_json()


_NO_ROWS = "this task's input cannot be split into rows (the ray engine needs it)"


class TaskIO:
    """Reading a task's inputs and writing its generated outputs; every method has a
    default that a task overrides where its files differ."""

    needs_reference: bool = True
    """Whether evaluation scores submissions against reference data."""

    def submission_files(self, paths: Sequence[str]) -> list[str]:
        """The files the submission paths given stand for (a folder may stand for the
        files inside it)."""
        return [str(p) for p in paths]

    def bundled_submissions(self, reference: Any) -> list[Any]:
        """Submissions that come inside the reference file, scored when none are given."""
        return []

    def read_generation_input(self, task: ReadsReference, path: str | Path) -> Any:
        """What a generator works on, read from a file (labels not needed)."""
        return task.load_reference(path)

    def generator_input(self, data: Any) -> Any:
        """What the generator's ``generate`` is handed for the loaded input."""
        return data

    streams: bool = False
    """Whether ``stream_input`` can read the input a record at a time (corpus runs)."""

    def stream_input(
        self, task: ReadsReference, path: str | Path, store: Any, *, limit: int | None
    ) -> Any:
        """The input read a record at a time into ``store`` (a ``CorpusStore``), the
        first ``limit`` items only when given: what a Ray run over a corpus generates
        for, never held in memory whole. None when this file's layout is read whole."""
        raise DataError("this task's input cannot be read as a stream")

    def first(self, data: Any, n: int) -> Any:
        """The input cut to its first ``n`` items."""
        raise DataError("this task's input cannot be cut to its first items (limit)")

    def items(self, data: Any) -> dict[str, Any]:
        """The input's items by id, in order (the rows of a Ray run)."""
        raise DataError(_NO_ROWS)

    def with_items(self, data: Any, items: dict[str, Any]) -> Any:
        """The input holding ``items`` only (what one Ray batch generates for)."""
        raise DataError(_NO_ROWS)

    def outcome_groups(self, run: GenerationRun, n_items: int) -> list[list[Any]]:
        """A run's outcomes, per item of its input, in input order (one each by
        default)."""
        return [[outcome] for outcome in run.outcomes]

    def merged_outcomes(self, groups: list[list[Any]]) -> list[Any]:
        """The outcomes of a whole run from every item's group, in input order: what
        the generator returns for the whole input at once."""
        return [outcome for group in groups for outcome in group]

    def failed_outcomes(self, generator: Any, key: str, item: Any, *, reason: str) -> list[Any]:
        """The outcomes of an item whose generation raised ``reason`` (Ray engine)."""
        raise DataError(_NO_ROWS)

    def input_flags(self, data: Any, options: dict[str, Any]) -> list[Flag]:
        """What the input holds that is generated for but worth a warning (``options``:
        the generator's, which may make more of the input matter)."""
        return list(getattr(data, "flags", []))

    def parts(self, run: GenerationRun, data: Any, context: RecordContext) -> list[GeneratedPart]:
        """The output of one generation run and its record, per file to write."""
        output = [o.to_json() if hasattr(o, "to_json") else o for o in run.outcomes]
        record = context.record(run, {"run": context.run_index + 1}, warnings=run.warnings)
        name = f"run{context.run_index + 1}" if context.n_runs > 1 else ""
        return [GeneratedPart(name, output, record)]

    def write(self, generation: Any, out: Path, **options: Any) -> list[Path]:
        """Write every part of ``generation`` (a ``maieutic.run.Generation``: ``OUT`` or
        ``OUT-runK``) with its ``.meta.json``; the paths written."""
        written = []
        for part in generation.parts:
            path = out.with_name(f"{out.stem}-{part.name}{out.suffix}") if part.name else out
            # the output and its record together: a full disk leaves neither half-done
            # in pieces: a corpus run's output is streamed from its store, never whole
            write_together(
                {path: json_chunks(part.output), meta_path(path): json_chunks(part.record)}
            )
            written.append(path)
        return written


DEFAULT_IO = TaskIO()


def task_io(task: Any) -> TaskIO:
    """The task's hooks (the defaults when it names none)."""
    return getattr(task, "io", None) or DEFAULT_IO
