"""JSON written a piece at a time, byte for byte as ``json_text`` writes it whole.

A corpus run's output (one entry per text) need never be held in memory: its big
objects are ``Streamed`` — members produced by a function when the file is written —
and ``json_chunks`` yields the file's text piece by piece. A value with no ``Streamed``
inside is written by ``json.dumps`` itself, so the two routes cannot drift apart where
it matters: the layout (two-space indent, ``", "`` / ``": "``, UTF-8 as is, empty
containers as ``{}`` and ``[]``) is the one rule below, tested against ``json_text``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import Any

INDENT = "  "


class Streamed:
    """A JSON object (``pairs=True``: members are (key, value)) or array whose members
    come from ``members()``, called anew each time it is written or read."""

    def __init__(self, members: Callable[[], Iterable[Any]], *, pairs: bool) -> None:
        self.members = members
        self.pairs = pairs

    def materialised(self) -> dict[str, Any] | list[Any]:
        """The whole object or array in memory (for a caller that wants it)."""
        return dict(self.members()) if self.pairs else list(self.members())


def streamed_object(members: Callable[[], Iterable[tuple[str, Any]]]) -> Streamed:
    """A JSON object whose (key, value) members come from ``members()``."""
    return Streamed(members, pairs=True)


def streamed_array(members: Callable[[], Iterable[Any]]) -> Streamed:
    """A JSON array whose members come from ``members()``."""
    return Streamed(members, pairs=False)


def holds_streamed(value: Any) -> bool:
    """Whether ``value`` is or holds a ``Streamed`` anywhere."""
    if isinstance(value, Streamed):
        return True
    if isinstance(value, dict):
        return any(holds_streamed(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(holds_streamed(v) for v in value)
    return False


def json_chunks(value: Any) -> Iterator[str]:
    """The text ``json_text(value)`` gives, in pieces, ``Streamed`` parts written as
    their members come."""
    yield from _chunks(value, 0)
    yield "\n"


def _chunks(value: Any, level: int) -> Iterator[str]:
    if isinstance(value, Streamed):
        yield from _container(value.members(), value.pairs, level)
    elif isinstance(value, dict) and holds_streamed(value):
        yield from _container(value.items(), True, level)
    elif isinstance(value, list | tuple) and holds_streamed(value):
        yield from _container(value, False, level)
    else:
        text = json.dumps(value, ensure_ascii=False, indent=len(INDENT))
        # JSON strings never hold a raw newline, so every newline is layout: shift it
        yield text.replace("\n", "\n" + INDENT * level) if level else text


def _container(members: Iterable[Any], pairs: bool, level: int) -> Iterator[str]:
    opening, closing = ("{", "}") if pairs else ("[", "]")
    inner = "\n" + INDENT * (level + 1)
    empty = True
    for member in members:
        yield (opening + inner) if empty else ("," + inner)
        empty = False
        if pairs:
            key, member = member
            yield json.dumps(_key(key), ensure_ascii=False) + ": "
        yield from _chunks(member, level + 1)
    yield (opening + closing) if empty else ("\n" + INDENT * level + closing)


def _key(key: Any) -> str:
    # json.dumps writes these keys as strings; anything else it refuses, and so do we
    if isinstance(key, str):
        return key
    if key is True or key is False or key is None:
        return json.dumps(key)
    if isinstance(key, int | float):
        return json.dumps(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")


def object_from(
    source: Any, members: Callable[[], Iterable[tuple[str, Any]]]
) -> dict[str, Any] | Streamed:
    """The JSON object of ``members()`` pairs: streamed when ``source`` (the outcomes
    they are made from) is itself read from disk as it is iterated (``streamed``), a
    dict otherwise — so one writer serves a corpus run and an in-memory run alike."""
    if getattr(source, "streamed", False):
        return streamed_object(members)
    return dict(members())
