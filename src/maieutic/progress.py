"""Progress bars for long steps — encoding, model calls, training — on stderr.

Shown only when both stdout and stderr are terminals (output piped to a file or a CI
log stays clean) and ``--quiet`` (``MAIEUTIC_QUIET=1``) was not given. Steps nest: a
step started inside another adds a line to the same display instead of opening a
second one (rich allows one live display at a time)."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

Update = Callable[[int, int], None]
QUIET = os.environ.get("MAIEUTIC_QUIET", "").lower() in ("1", "true", "yes")
_active: Progress | None = None
_lock = threading.Lock()


def set_quiet(quiet: bool) -> None:
    """Silence (or allow) every progress bar of this process."""
    global QUIET
    QUIET = quiet


def enabled() -> bool:
    """Whether progress is shown: not quiet, and stdout and stderr are terminals."""
    return not QUIET and sys.stdout.isatty() and sys.stderr.isatty()


def _new_display() -> Progress:
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )


@contextlib.contextmanager
def progress(label: str, total: int | None = None) -> Iterator[Update]:
    """A progress line for one step; yields ``update(done, total)`` (thread-safe)."""
    global _active
    if not enabled():
        yield lambda done, total: None
        return
    with _lock:
        owner = _active is None
        if owner:
            _active = _new_display()
            _active.start()
        display = _active
        task = display.add_task(label, total=total)
    try:
        yield lambda done, total: display.update(task, completed=done, total=total)
    finally:
        with _lock:
            display.remove_task(task)
            if owner:
                display.stop()
                _active = None
