"""Where maieutic keeps its state: one directory, ``MAIEUTIC_HOME``.

Everything persistent (embedding cache, later the LLM call cache and log) lives
under it, so a user can move, inspect or delete all state in one place.

A state folder that cannot be used (a file, a folder without write permission) is
one clear error line, never a traceback; a damaged cache file is moved aside so that
a run starts a fresh cache instead of failing (see ``set_aside``).
"""

from __future__ import annotations

import functools
import os
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from maieutic.errors import RunError

HOME_ENV = "MAIEUTIC_HOME"
_FIX = f"set {HOME_ENV} to a writable folder"
# SQLite's primary result codes for a file that is not (or no longer) a database
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26
T = TypeVar("T")


def maieutic_home() -> Path:
    """Return the state directory, creating it if needed.

    ``$MAIEUTIC_HOME`` wins; otherwise the per-user cache directory. A ``RunError``
    names the folder and what is wrong when it cannot be used.
    """
    configured = os.environ.get(HOME_ENV)
    home = Path(configured) if configured else Path(platformdirs.user_cache_dir("maieutic"))
    label = f"{HOME_ENV} {home}" if configured else f"the state folder {home}"
    try:
        if home.exists() and not home.is_dir():
            raise RunError(f"{label} is a file, not a folder ({_FIX})")
        home.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a parent that is a file, or that we may not enter
        raise RunError(f"{label} cannot be created: {exc.strerror} ({_FIX})") from None
    # os.access, not a trial write: this runs on every cache open and must stay cheap
    if not os.access(home, os.W_OK | os.X_OK):
        raise RunError(f"{label} is not writable ({_FIX})")
    return home


def state_write_error(path: Path, exc: sqlite3.Error) -> RunError:
    """A one-line error for a state file that cannot be written (full disk, no permission)."""
    return RunError(f"cannot write {path}: {exc} (free some space or {_FIX})")


def is_damaged(exc: sqlite3.DatabaseError) -> bool:
    """Whether ``exc`` says the database file itself is damaged (not busy, not full)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:  # an error raised by the sqlite3 module itself: no code to go by
        return type(exc) is sqlite3.DatabaseError
    return (code & 0xFF) in (_SQLITE_CORRUPT, _SQLITE_NOTADB)


def is_unwritable(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says the database file cannot be opened or written (full disk,
    read-only file or folder, I/O error) rather than a bug in a query."""
    names = ("SQLITE_FULL", "SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_IOERR", "SQLITE_PERM")
    return str(getattr(exc, "sqlite_errorname", "")).startswith(names)


_WAL_TRIES = 600
"""Tries, 0.1 s apart (a minute in all), to switch a new file to write-ahead logging."""


def use_wal(db: sqlite3.Connection) -> None:
    """Write-ahead logging, waiting for other connections to a new file: switching a
    file to WAL needs it to itself, and SQLite answers "database is locked" at once
    rather than waiting out its timeout (seen with eight threads opening one new
    cache). Once the file is in WAL, connections wait on each other as usual."""
    for _ in range(_WAL_TRIES - 1):
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc):
                raise
            time.sleep(0.1)
    db.execute("PRAGMA journal_mode=WAL")  # the last try: its error is the caller's


def _aside_name(path: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target, n = path.with_name(f"{path.name}.damaged-{stamp}"), 1
    while target.exists():  # two damaged files in one second keep both
        n += 1
        target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    return target


def set_aside(path: Path, why: object) -> Path:
    """Move a damaged SQLite file (and its ``-wal`` and ``-shm``) to
    ``NAME.damaged-<timestamp>`` in the same folder, say so in one line on stderr,
    and return the new path.

    The file is kept, not deleted, so it can be inspected or recovered by hand; its
    ``-wal`` goes with it because a fresh database would replay a stale one.
    """
    target = _aside_name(path)
    try:
        for suffix in ("", "-wal", "-shm"):
            old = path.with_name(path.name + suffix)
            if old.exists():
                old.rename(target.with_name(target.name + suffix))
    except OSError as exc:
        raise RunError(
            f"the cache {path} is damaged ({why}) and could not be moved aside "
            f"({exc.strerror}): delete it or {_FIX}"
        ) from None
    print(
        f"warning: the cache {path} was damaged ({why}); moved it to {target} "
        "and started a fresh cache",
        file=sys.stderr,
    )
    return target


def _writing(path: Path, action: Callable[[], T]) -> T:
    """``action()``, with a file that cannot be written as a ``RunError`` naming it."""
    try:
        return action()
    except sqlite3.DatabaseError as exc:
        if is_unwritable(exc):
            raise state_write_error(path, exc) from None
        raise


def survives_damage(method: Callable[..., T]) -> Callable[..., T]:
    """Decorate a method of a SQLite-backed cache so a damaged file does not end the run.

    The cache object has ``path``, ``_db`` (its connection, or None) and ``_connect()``
    (which sets ``_db`` and prepares the schema). When the method finds the file
    damaged, the file is set aside (``set_aside``), a fresh one is connected, and the
    method runs again on it; a file that cannot be written (full disk, no permission)
    is a ``RunError`` naming it. Other errors (a bad query, a busy file) propagate.
    """

    @functools.wraps(method)
    def run(self: Any, *args: Any, **kwargs: Any) -> T:
        try:
            return _writing(self.path, lambda: method(self, *args, **kwargs))
        except sqlite3.DatabaseError as exc:
            if not is_damaged(exc):
                raise
            damage = str(exc)
        if self._db is not None:
            self._db.close()
            self._db = None
        set_aside(self.path, damage)

        def again() -> T:
            self._connect()
            return method(self, *args, **kwargs)

        return _writing(self.path, again)

    return run


class DamageSafeStore:
    """A SQLite-backed cache under ``MAIEUTIC_HOME/FILE_NAME`` (or ``path``) whose file
    survives damage (``survives_damage``); a subclass names its file and writes
    ``_connect`` (connect, set ``_db``, prepare the schema)."""

    FILE_NAME = "cache.sqlite"

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else maieutic_home() / self.FILE_NAME
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db: sqlite3.Connection | None = None
        self._open()

    @survives_damage
    def _open(self) -> None:
        """Connect, unless a damaged file was just replaced (which connects afresh)."""
        if self._db is None:
            self._connect()

    def _connect(self) -> None:
        raise NotImplementedError
