"""Writing the files maieutic writes: whole or not at all, never over an input.

Every write goes through ``maieutic.data.guard`` (refused when it would reach an input
of the current command) and a temporary file in the same folder, flushed and renamed
into place.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from maieutic.data import guard
from maieutic.errors import RunError

STDOUT = "-"
_STDOUT_NAMES = {STDOUT, "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}


def is_stdout(path: str | Path | None) -> bool:
    """Whether ``path`` means standard output (``-`` or one of its device names)."""
    return path is not None and str(path) in _STDOUT_NAMES


def rewritable(path: str | Path | None) -> bool:
    """Whether ``path`` can be rewritten over and over (a regular file, or a new path);
    standard output, pipes and devices are written once, at the end."""
    if path is None or is_stdout(path):
        return False
    path = Path(path)
    return not path.is_symlink() and (not path.exists() or path.is_file())


def _umask() -> int:
    # os.umask can only be read by setting it; set it back at once
    mask = os.umask(0)
    os.umask(mask)
    return mask


def json_text(payload: Any) -> str:
    """``payload`` as maieutic writes JSON files (indented, UTF-8 as is)."""
    return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"


def write_json(path: str | Path, payload: Any) -> None:
    """Write ``payload`` as JSON to ``path`` (see ``write_text``); ``-`` means standard output."""
    write_text(path, json_text(payload))


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` as UTF-8 (see ``write_bytes``); ``-`` means standard
    output."""
    if is_stdout(path):
        # through this process's own stream: reopening /dev/stdout would truncate a
        # redirected file and write over what was printed before
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path``, never over an input of the current command
    (``maieutic.data.guard``).

    A regular file (or a new path) is written to a temporary file in the same folder,
    flushed to disk and renamed into place, so a crash or a full disk never leaves
    half a file (the previous file stays whole); it gets the permissions a plain
    ``open`` would give (the user's umask), or keeps those of the file it replaces.
    Anything else at ``path`` — a symlink such as ``/dev/stdout``, a pipe, a terminal,
    a device — is written in place and never replaced, since renaming over it would
    swap it for a regular file.
    """
    path = Path(path)
    if not _replaceable(path):
        guard.check_output(path)
        try:
            with open(path, "wb") as handle:
                handle.write(data)
        except OSError as exc:
            raise RunError(f"cannot write: {exc.strerror}", where=str(path)) from None
        return
    _rename(_staged(path, data), path)


def write_together(texts: dict[Path, str | Iterable[str]]) -> None:
    """Write several files that belong together (an output and its ``.meta.json``) so
    that either all are replaced or none is: every file is written to a temporary file
    and flushed first — a full disk fails there, changing nothing — and only then are
    they renamed into place. A text may come in pieces (``json_stream.json_chunks``),
    written as they come. Standard output and special files are written as
    ``write_text`` writes them."""
    plain = {p: t for p, t in texts.items() if is_stdout(p) or not _replaceable(Path(p))}
    for path, text in plain.items():
        write_text(path, text if isinstance(text, str) else "".join(text))
    staged: list[tuple[str, Path]] = []
    try:
        for path, text in texts.items():
            if path not in plain:
                data = text.encode("utf-8") if isinstance(text, str) else text
                staged.append((_staged(Path(path), data), Path(path)))
    except BaseException:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        raise
    for tmp, path in staged:
        _rename(tmp, path)


def _rename(tmp: str, path: Path) -> None:
    """Put the staged ``tmp`` in place of ``path`` (removed if that fails)."""
    try:
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise RunError(f"cannot write: {exc.strerror}", where=str(path)) from None


def _replaceable(path: Path) -> bool:
    return not path.is_symlink() and (not path.exists() or path.is_file())


def _staged(path: Path, data: bytes | Iterable[str]) -> str:
    """``data`` (bytes, or text in pieces) in a flushed temporary file beside ``path``
    (its name returned), with the mode ``path`` has or would get; a ``RunError`` when
    it cannot be written."""
    guard.check_output(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise RunError(
            "cannot write: a file stands where its folder should be", where=str(path)
        ) from None
    except OSError as exc:
        raise RunError(f"cannot write: {exc.strerror}", where=str(path)) from None
    try:
        mode = path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise RunError(f"cannot write: {exc.strerror}", where=str(path)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                _write_pieces(handle, data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise RunError(f"cannot write: {exc.strerror}", where=str(path)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


def _write_pieces(handle: Any, pieces: Iterable[str]) -> None:
    """Text in pieces, encoded and written about a megabyte at a time."""
    buffered: list[str] = []
    size = 0
    for piece in pieces:
        buffered.append(piece)
        size += len(piece)
        if size >= 1 << 20:
            handle.write("".join(buffered).encode("utf-8"))
            buffered, size = [], 0
    handle.write("".join(buffered).encode("utf-8"))
