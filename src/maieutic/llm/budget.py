"""A time budget for every model call made inside a block of work.

``ask`` runs several generators in a row, each with its own calls, timeouts and
retries; on a slow machine their waits add up to an hour. Inside ``time_budget(s)``
every ``LLMClient`` call shares one deadline: no attempt starts after it, an attempt
waits at most until it, and a retry never sleeps past it. Outside a budget nothing
changes. The deadline is a context variable, so the asyncio tasks that make the calls
see the budget of the code that started them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

DEFAULT_BUDGET_S = 300.0
"""``ask``'s default: five minutes for all its model calls, so a slow machine gives
offline questions in minutes rather than waiting out every timeout and retry."""
_DEADLINE: ContextVar[float | None] = ContextVar("maieutic_llm_deadline", default=None)
SPENT = "the time budget for model calls ran out"
"""The reason a call gives when the budget stopped it (callers match on it)."""


@contextmanager
def time_budget(seconds: float | None) -> Iterator[None]:
    """Share a deadline ``seconds`` from now among the model calls of the block (None:
    no budget)."""
    if seconds is None:
        yield
        return
    token = _DEADLINE.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def remaining() -> float | None:
    """Seconds left in the current budget (never below 0), or None outside one."""
    deadline = _DEADLINE.get()
    return None if deadline is None else max(0.0, deadline - time.monotonic())
