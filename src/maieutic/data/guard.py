"""No output over an input: the one check every file maieutic writes goes through.

A command (or a library run) opens a *scope*; every file read in it — by the one
reader in ``maieutic.data.files``, or declared up front from the command's options —
is noted as an input, by its resolved path and by its device and inode. Writing a file
that resolves to one of them (the same path, a symlink to it, a hard link to it) is
refused with one line before a byte is written, whichever command or derived name
(``-runK``, ``.meta.json``, a shard) the write comes from. Outside a scope (a library
caller writing files itself) nothing is checked.
"""

from __future__ import annotations

import functools
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from maieutic.errors import DataError

_FILES_PER_FOLDER = 10_000
"""An input folder's files noted one by one, up to this many (a folder of submissions)."""


@dataclass
class _Inputs:
    """The inputs of one command: resolved path → how the user named it, and the
    (device, inode) of each."""

    paths: dict[str, str] = field(default_factory=dict)
    nodes: dict[tuple[int, int], str] = field(default_factory=dict)


P = ParamSpec("P")
R = TypeVar("R")

_SCOPE: ContextVar[_Inputs | None] = ContextVar("maieutic_inputs", default=None)


@contextmanager
def command_scope() -> Iterator[None]:
    """Note inputs and check outputs until the block ends; a scope opened inside
    another one shares it (the CLI opens one, the run layer it calls opens another)."""
    if _SCOPE.get() is not None:
        yield
        return
    token = _SCOPE.set(_Inputs())
    try:
        yield
    finally:
        _SCOPE.reset(token)


def scoped(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` run in a ``command_scope`` (the library's entry points)."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with command_scope():
            return function(*args, **kwargs)

    return wrapper


def note_input(path: Any) -> None:
    """Note ``path`` as an input of the current command (a folder: the files in it);
    anything that is not a path (data already loaded) is ignored."""
    inputs = _SCOPE.get()
    if inputs is None or not isinstance(path, (str, Path)) or str(path) in ("", "-"):
        return
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return  # not there (yet): the reader says so when it is read
    if stat.S_ISDIR(info.st_mode):
        for n, child in enumerate(_files_in(Path(path))):
            if n >= _FILES_PER_FOLDER:
                break
            note_input(child)
        return
    inputs.paths[os.path.realpath(path)] = str(path)
    inputs.nodes[(info.st_dev, info.st_ino)] = str(path)


def note_inputs(paths: Iterable[Any]) -> None:
    """``note_input`` for each of ``paths``."""
    for path in paths:
        note_input(path)


def _files_in(folder: Path) -> Iterator[Path]:
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return
    yield from (child for child in children if child.is_file())


def check_output(path: str | Path, option: str | None = None) -> None:
    """Refuse (``DataError``, exit 2) to write ``path`` when it is, or leads to, an
    input of the current command; ``option`` names what chose the path (``--out``)."""
    inputs = _SCOPE.get()
    if inputs is not None and inputs.paths:
        _check(path, inputs, option)


def check_against(path: str | Path, inputs: Iterable[Any], option: str | None) -> None:
    """Refuse to write ``path`` over any of ``inputs`` (in a scope or not), and note
    them as the current command's inputs."""
    inputs = list(inputs)
    note_inputs(inputs)
    token = _SCOPE.set(_Inputs())
    try:
        note_inputs(inputs)
        check_output(path, option)
    finally:
        _SCOPE.reset(token)


def _check(path: str | Path, inputs: _Inputs, option: str | None) -> None:
    found = inputs.paths.get(os.path.realpath(path))
    if found is None:
        try:
            info = os.stat(path)  # follows a symlink; a hard link shares the inode
        except (OSError, ValueError):
            info = None
        if info is not None:
            found = inputs.nodes.get((info.st_dev, info.st_ino))
    if found is not None:
        same = os.path.abspath(path) == os.path.abspath(found)
        what = "is one of the input files" if same else f"leads to the input file {found}"
        raise DataError(
            f"{what}: writing it would destroy it (choose another output path)",
            where=f"{option} {path}" if option else str(path),
        )


def check_outputs(paths: Iterable[str | Path], option: str | None = None) -> None:
    """``check_output`` for each of ``paths`` (a command's outputs, checked before any
    work is done)."""
    for path in paths:
        check_output(path, option)


def check_derived(out: str | Path, runs: int, option: str) -> None:
    """Refuse ``option OUT`` when it, or a file derived from it (``derived_outputs``),
    is an input; the message names the derived file."""
    for path in derived_outputs(out, runs):
        try:
            check_output(path)
        except DataError as exc:
            if Path(path) == Path(out):
                raise DataError(exc.message, where=f"{option} {out}") from None
            raise DataError(
                f"writes {path}, which {exc.message}", where=f"{option} {out}"
            ) from None


def derived_outputs(out: str | Path, runs: int = 1) -> list[Path]:
    """The files a generation writes for ``--out OUT``: ``OUT``, its ``.meta.json``,
    and with several runs ``OUT-runK`` and theirs."""
    out = Path(out)
    names = (
        [out]
        if runs <= 1
        else [out.with_name(f"{out.stem}-run{k}{out.suffix}") for k in range(1, runs + 1)]
    )
    return [p for name in names for p in (name, name.with_name(f"{name.stem}.meta.json"))]
