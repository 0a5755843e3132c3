"""Small helpers for messages people read."""

from __future__ import annotations


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``1 question``, ``2 questions`` (``nouns``: an irregular plural)."""
    return f"{n} {noun}" if n == 1 else f"{n} {nouns or noun + 's'}"
