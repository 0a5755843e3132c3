"""The time limit of a model run in this process, one call at a time.

An in-process runtime (llama.cpp, transformers) runs one call at a time behind a lock,
so calls sent together wait their turn. A limit counted from when a call is sent would
count that wait: with several calls queued, a slow model's last call ran out of time
before it started, and the one that timed out went on running unseen, holding the lock.
Here a call's clock starts when its turn comes (the lock taken, the model loaded), the
time budget of the work it runs in (``maieutic.llm.budget``) caps it, and a call that
runs out of time is stopped at its next token and says so.
"""

from __future__ import annotations

import time

from maieutic.llm import budget
from maieutic.llm.types import TransientError

WAITED_OUT = "not started: the time budget ran out while it waited its turn"


class OutOfTime(Exception):
    """Raised from inside a runtime's generation loop to stop a call at its deadline."""


def start_call(timeout: float) -> tuple[float, float]:
    """At the start of a call (its turn come): its limit in seconds (``timeout``, or
    what is left of the time budget if less) and its deadline on ``time.monotonic``."""
    left = budget.remaining()
    limit = timeout if left is None else min(timeout, left)
    if limit <= 0:
        raise TransientError(WAITED_OUT)
    return limit, time.monotonic() + limit


def timed_out(limit: float, tokens: int) -> TransientError:
    """The error of a call stopped at its deadline after ``tokens`` tokens."""
    return TransientError(
        f"timed out after {limit:g} s of generating (stopped after {tokens} "
        f"token{'' if tokens == 1 else 's'})"
    )
