"""Inputs of a run, given as paths or as objects already loaded: the reference data and
the submissions, read and checked before any model work starts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from maieutic.core import Task
from maieutic.core.task_io import TaskIO, task_io
from maieutic.data.flags import refuse_flags
from maieutic.errors import DataError
from maieutic.evaluate.result import unique_names
from maieutic.run.components import needs_references, references_hint

PathLike = str | Path


def is_path(value: Any) -> bool:
    """Whether ``value`` names a file (rather than being loaded data)."""
    return isinstance(value, str | Path)


def load_reference(
    task: Task, io: TaskIO, data: Any, *, texts_only: bool = False, hint: str = ""
) -> Any:
    """The reference data: read from a path, or ``data`` itself when already loaded
    (None for a task that scores without references); ``texts_only``: for an evaluator
    that needs no references (``Task.load_texts``). ``hint`` is added to the error when
    the file holds texts without what the evaluator needs (which evaluators need none)."""
    if data is None:
        if io.needs_reference:
            raise DataError(f"task {task.name!r} scores against reference data: give data")
        return None
    if not is_path(data):
        return data
    if texts_only and task.load_texts:
        return task.load_texts(data)
    try:
        return task.load_reference(data)
    except DataError as exc:
        if not hint or task.load_texts is None or not _texts(task, data):
            raise
        raise DataError(f"{exc.message} ({hint})", where=exc.where) from None


def reference_for(
    task: Task, data: Any, *, evaluator: Any, options: dict[str, Any], why: str = ""
) -> Any:
    """The reference data for ``evaluator`` (with its factory ``options``): the texts
    alone when it needs no references (``needs_references``). ``why``: what to say
    when references are needed anyway (default: which evaluators need none)."""
    texts_only = not why and not needs_references(task.name, evaluator, options)
    hint = "" if texts_only else why or references_hint(task.name, evaluator)
    return load_reference(task, task_io(task), data, texts_only=texts_only, hint=hint)


def _texts(task: Task, data: Any) -> bool:
    """Whether ``data`` reads as texts (without references)."""
    assert task.load_texts is not None
    try:
        task.load_texts(data)
    except DataError:
        return False
    return True


def described(value: Any) -> Any:
    """``value`` as JSON for a provenance record: paths as strings, sequences and
    mappings element by element, loaded objects by their type (``<CQDataset>``)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {str(k): described(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [described(v) for v in value]
    return f"<{type(value).__name__}>"


def as_list(values: Any) -> list[Any]:
    """One path or object, or a sequence of them, as a list."""
    if values is None:
        return []
    if is_path(values) or not isinstance(values, Sequence):
        return [values]
    return list(values)


def load_submissions(
    task: Task,
    io: TaskIO,
    given: Any,
    *,
    reference: Any,
    strict: bool = False,
    on_loaded: Callable[[Any], None] | None = None,
) -> list[Any]:
    """Every submission read (paths) or taken as given (objects), checked against the
    reference, shown to ``on_loaded``, refused when flagged under ``strict``, and named
    uniquely. With none given, the submissions the reference carries itself are
    scored."""
    items = as_list(given)
    loaded = []
    for item in items:  # in the order given; a path may stand for several files
        if is_path(item):
            loaded += [task.load_submission(p) for p in io.submission_files([str(item)])]
        else:
            loaded.append(item)
    if not items:
        loaded = io.bundled_submissions(reference)
    if not loaded:
        raise DataError(f"no submissions to evaluate for task {task.name!r}")
    for submission in loaded:
        if reference is not None and task.check_submission:
            task.check_submission(submission, reference)
        if on_loaded:
            on_loaded(submission)
        if strict:
            refuse_flags(submission.flags)
    names = unique_names([s.name for s in loaded], sources=[s.source for s in loaded])
    for submission, name in zip(loaded, names, strict=True):
        submission.name = name
    return loaded


def refuse_overwriting_inputs(out: PathLike | None, inputs: Sequence[Any]) -> None:
    """An error when the results file would replace one of the input files."""
    if out is None or str(out) == "-":
        return
    target = Path(out).resolve()
    if any(is_path(p) and Path(p).resolve() == target for p in inputs):
        raise DataError(f"the results file {out} is one of the input files")


def input_warnings(data: Any) -> list[str]:
    """What loading the data warned about: its warnings and its flags."""
    if data is None:
        return []
    return [*getattr(data, "warnings", []), *(f.short for f in getattr(data, "flags", []))]


def refuse_generating_over(out: PathLike | None, inputs: Sequence[Any]) -> None:
    """An error when a generation run would write over one of its input files: ``out``
    itself, or a name derived from it (``OUT-runK.*``, ``OUT.meta.json``, the same
    stem with the task's other suffix), through a symbolic link too."""
    if out is None or str(out) == "-":
        return
    target = Path(out).resolve()
    stem = target.with_suffix("").name
    for given in inputs:
        if not is_path(given):
            continue
        path = Path(given).resolve()
        derived = path.parent == target.parent and (
            path.with_suffix("").name == stem
            or path.name.startswith(f"{stem}-run")
            or path.name == f"{stem}.meta.json"
        )
        if path == target or derived:
            raise DataError(f"the output {out} would write over the input {given}")
