"""Lone surrogates: characters that are no UTF-8 and that nothing downstream can encode.

UTF-8 input decoded strictly holds none; they reach a string only through a JSON escape
(``"\\ud800"`` with no low half after it) or a command-line argument in another
encoding (Python decodes its bytes with ``surrogateescape``). Such text is refused with
one line saying where, as undecodable bytes in a file are (``decode_text``), rather than
failing later where it is hashed, cached or embedded.
"""

from __future__ import annotations

import re
from typing import Any

from maieutic.errors import DataError

_LONE = re.compile("[\ud800-\udfff]")
# a JSON escape of a surrogate: only a text holding one can decode to a lone surrogate
_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def lone_surrogate(text: str) -> int | None:
    """The index of the first lone surrogate in ``text`` (None: there is none)."""
    found = _LONE.search(text)
    return found.start() if found else None


def refuse_lone_surrogates(text: str, *, where: str) -> None:
    """A ``DataError`` naming ``where`` when ``text`` holds a lone surrogate."""
    if (at := lone_surrogate(text)) is not None:
        raise DataError(f"not UTF-8 text (character {at} is a lone surrogate)", where=where)


def refuse_in_json(raw: str, value: Any, where: str | None) -> None:
    """A ``DataError`` naming ``where`` and the JSON path of the first string (key or
    value) in ``value`` holding a lone surrogate; ``raw`` is the JSON text ``value`` was
    parsed from (looked at first: a text with no surrogate escape has nothing to find)."""
    if not _ESCAPE.search(raw):
        return
    found = _first(value, "")
    if found is not None:
        path, at = found
        raise DataError(
            f"not UTF-8 text: a lone surrogate (a \\u escape of half a character) in "
            f"{path or 'the top value'}, at character {at}",
            where=where,
        )


def _first(value: Any, path: str) -> tuple[str, int] | None:
    stack = [(value, path)]
    while stack:  # iterative: a deep file must not exhaust the recursion limit
        item, where = stack.pop()
        if isinstance(item, str):
            if (at := lone_surrogate(item)) is not None:
                return where, at
        elif isinstance(item, dict):
            for key, child in reversed(list(item.items())):
                if (at := lone_surrogate(key)) is not None:
                    return _joined(where, key=ascii(key)), at
                stack.append((child, _joined(where, key=key)))
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{n}]") for n, child in reversed(list(enumerate(item))))
    return None


def _joined(path: str, *, key: str) -> str:
    return f"{path}.{key}" if path else key
