"""Limits and intervals set through the environment (``MAIEUTIC_ASK_MAX_CHARS`` …).

Each is read once, when its module is imported. A value that is not a number, or is
below the least that makes sense, is refused with one line naming the variable
(exit 2): a limit read wrong must not become another limit without a word, and a
traceback at import says nothing a user can act on.
"""

from __future__ import annotations

import math
import os

from maieutic.errors import DataError


def env_number(name: str, default: float, *, whole: bool = True, least: float = 1) -> float:
    """The number in environment variable ``name`` (``default`` when unset or empty;
    blanks only are refused):
    an integer when ``whole``, never below ``least``; anything else is a
    ``DataError``."""
    given = os.environ.get(name, "")
    if not given:
        return default
    raw = given.strip()
    if not raw:  # set, but to blanks: a value gone wrong, not a wish for the default
        raise DataError(f"{name}={given!r} is blank (unset it for {_shown(default)})")
    try:
        value = float(raw)  # 1e6 is a whole number too
        if not math.isfinite(value) or (whole and not value.is_integer()):
            raise ValueError(raw)
    except ValueError:
        kind = "a whole number" if whole else "a number"
        raise DataError(f"{name}={raw!r} is not {kind} (unset it for {_shown(default)})") from None
    if value < least:
        raise DataError(
            f"{name}={raw!r} must be at least {least:g} (unset it for {_shown(default)})"
        )
    return int(value) if whole else value


def _shown(number: float) -> str:
    return f"{int(number):,}" if number == int(number) else f"{number:g}"
