"""A deadline for a block of work, checked at each of its steps.

The web app runs a job (ask about a text, score submissions, draw a report) on a
worker thread, which Python cannot stop from outside. So a job carries a deadline in
a context variable, and the work checks it where it already reports progress: every
``maieutic.progress`` update (each batch of texts encoded, each model call finished,
each training round) and every step a job announces. Past the deadline the next check
raises ``PastDeadline`` and the work unwinds as from any other error: the thread is
free for the next job, and the job says how long it was allowed. A stretch of work
between two checks is not cut short (one batch, one model call: seconds).

Outside ``deadline(...)`` a check costs one context-variable read and never raises.
Threads start with an empty context, so a deadline binds only the thread (and the
asyncio tasks) of the work that set it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from maieutic.errors import RunError

_DEADLINE: ContextVar[tuple[float, float] | None] = ContextVar("maieutic_deadline", default=None)
_clock = time.monotonic
"""The clock deadlines are measured on (tests move a clock of their own)."""


class PastDeadline(RunError):
    """The work ran past its deadline and was stopped at its next step."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"stopped: the work ran past its time budget of {seconds:g} s")
        self.seconds = seconds


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Stop the block's work at its first step ``seconds`` from now (None: never)."""
    if seconds is None:
        yield
        return
    token = _DEADLINE.set((_clock() + seconds, seconds))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check() -> None:
    """Raise ``PastDeadline`` when the current block's deadline has passed."""
    current = _DEADLINE.get()
    if current is not None and _clock() > current[0]:
        raise PastDeadline(current[1])
