"""One run at a time in a shard folder: a second run writing the same output while the
first is running is refused with one line, never left to trip over the first's files.

The lock is an exclusive ``flock`` on ``.lock`` in the shard folder, taken before any
shard is read and held until the run's files are written and its shards removed. The
kernel drops it when the process ends, however it ends, so a killed run leaves no lock
behind: the next run takes it and resumes.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path
from typing import IO

from maieutic.errors import RunError

try:  # POSIX; elsewhere runs are not locked
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

LOCK = ".lock"
_HELD = {errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES}
"""The errors ``flock`` gives when another process holds the lock."""


class ShardLock:
    """The held lock of one shard folder (``release`` ends it; so does process exit)."""

    def __init__(self, handle: IO[str] | None) -> None:
        self._handle = handle

    def release(self) -> None:
        """Let another run take the folder."""
        if self._handle is not None:
            self._handle.close()  # closing the file drops its flock
            self._handle = None


def lock_folder(folder: Path, *, out: Path) -> ShardLock:
    """Take ``folder``'s lock for this process, creating the folder; a folder locked by
    a running process is refused (``RunError`` naming ``out`` and that process)."""
    if fcntl is None:  # pragma: no cover - not POSIX
        return ShardLock(None)
    for _ in range(10):
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / LOCK
        try:
            handle = path.open("a+", encoding="utf-8")
        except FileNotFoundError:  # the run before removed its folder just now
            continue
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno not in _HELD:
                # a file system without flock (Lustre mounted noflock, some FUSE or
                # CIFS mounts): run unlocked, and say so, rather than refuse every run
                handle.close()
                print(
                    f"warning: {out}: cannot lock {folder} ({exc.strerror or exc}); "
                    "running without the lock that keeps a second run off this output",
                    file=sys.stderr,
                )
                return ShardLock(None)
            handle.seek(0)
            pid = handle.read().strip()
            handle.close()
            raise RunError(
                f"another run is writing this output{f' (pid {pid})' if pid.isdigit() else ''}"
                ": wait for it to end or choose another --out",
                where=str(out),
            ) from None
        if _same_file(handle, path):
            handle.truncate(0)
            handle.write(f"{os.getpid()}\n")
            handle.flush()
            return ShardLock(handle)
        # the run before removed its folder between our open and our lock: start over
        handle.close()
    raise RunError("could not lock the shard folder", where=str(folder))


def _same_file(handle: IO[str], path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(handle.fileno()), os.stat(path))
    except OSError:
        return False
