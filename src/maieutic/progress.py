"""Progress of long steps — encoding, model calls, training — on stderr.

On a terminal (stdout and stderr both), a live bar per step. Off a terminal (stderr
to a file, a CI log, a pipe), plain log lines instead, at a bounded rate: a step says
nothing until it has run ``LOG_INTERVAL_S`` seconds (short commands stay quiet), then
``progress: STEP: done/total (elapsed)`` at most once per interval, and a last line
when it ends. ``--quiet`` (``MAIEUTIC_QUIET=1``) silences both. Bars nest: a step
started inside another adds a line to the same display instead of opening a second
one (rich allows one live display at a time)."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from maieutic.deadline import check as check_deadline
from maieutic.env_numbers import env_number

Update = Callable[[int, int], None]
QUIET = os.environ.get("MAIEUTIC_QUIET", "").lower() in ("1", "true", "yes")
LOG_INTERVAL_S = env_number("MAIEUTIC_PROGRESS_INTERVAL", 30, whole=False, least=0)
"""Seconds between two log lines of a step off a terminal (and before its first)."""
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


def _logs() -> bool:
    """Whether progress goes out as log lines: not quiet, and stderr is no terminal."""
    return not QUIET and not sys.stderr.isatty()


@contextlib.contextmanager
def _log_lines(label: str, total: int | None) -> Iterator[Update]:
    """Plain progress lines for ``label`` on stderr, at most one per interval."""
    start = time.monotonic()
    state = {"said": start, "done": 0, "total": total, "lines": 0}
    lock = threading.Lock()

    def line(end: str = "") -> None:
        elapsed = time.monotonic() - start
        of = f"/{state['total']}" if state["total"] else ""
        sys.stderr.write(f"progress: {label}: {state['done']}{of} ({elapsed:.0f} s{end})\n")
        sys.stderr.flush()
        state["lines"] += 1

    def update(done: int, total: int | None) -> None:
        with lock:
            state["done"], state["total"] = done, total
            now = time.monotonic()
            if now - state["said"] >= LOG_INTERVAL_S:
                state["said"] = now
                line()

    end = ", stopped"
    try:
        yield update
        end = ", done"
    finally:
        with lock:
            if state["lines"]:  # a step that said something says how it ended
                line(end)


def _checked(update: Update) -> Update:
    """``update`` that first checks the deadline: progress marks the points where a
    long step can stop cleanly."""

    def checked(done: int, total: int | None) -> None:
        check_deadline()
        update(done, total)

    return checked


@contextlib.contextmanager
def progress(label: str, total: int | None = None) -> Iterator[Update]:
    """Progress for one step; yields ``update(done, total)`` (thread-safe). Starting a
    step and each update check the work's deadline (``maieutic.deadline``)."""
    global _active
    check_deadline()
    if not enabled():
        if _logs():
            with _log_lines(label, total) as update:
                yield _checked(update)
            return
        yield _checked(lambda done, total: None)
        return
    with _lock:
        owner = _active is None
        if owner:
            _active = _new_display()
            _active.start()
        display = _active
        task = display.add_task(label, total=total)
    try:
        yield _checked(lambda done, total: display.update(task, completed=done, total=total))
    finally:
        with _lock:
            display.remove_task(task)
            if owner:
                display.stop()
                _active = None
