"""Text safe to print on a terminal, and the test for a text with nothing visible in it.

The text ``ask`` reads (and what a model writes about it) may hold terminal escape
sequences — an OSC sequence retitles the window, CSI ``2J`` clears the screen — or
bare control characters. rich, which draws the terminal view, drops only a few (BEL,
backspace, carriage return, vertical tab, form feed) and passes ESC through, and the
Markdown and JSON views are written as they are. Everything ``ask`` prints goes through
``terminal_safe``: whole escape sequences are removed (not just their ESC, which would
leave ``]0;title`` behind), then every other control character; newlines and tabs stay.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

_SEQUENCE = re.compile(
    # CSI (7-bit "ESC [" or 8-bit 0x9B): cursor moves, erasing, colours
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"
    # OSC, DCS, SOS, PM, APC: a string ended by BEL or ST (an unended one runs to the
    # end of its line, never further: the rest of the text is the user's)
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
    # any other escape sequence: ESC, intermediate bytes, a final byte
    r"|\x1b[ -/]*[0-~]?"
)
_KEPT = {"\n", "\t"}
_INVISIBLE = {"Cc", "Cf", "Zs", "Zl", "Zp"}
"""Unicode categories that show nothing: controls, format characters (zero-width
space, joiners, byte-order mark, direction marks) and separators."""


def terminal_safe(text: str) -> str:
    """``text`` without escape sequences and control characters (newlines and tabs
    kept; a carriage return becomes a newline, as a lone one ends a line)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _SEQUENCE.sub("", text)
    return "".join(c for c in text if c in _KEPT or unicodedata.category(c) != "Cc")


def terminal_safe_all(value: Any) -> Any:
    """``value`` (JSON-like: strings, lists, dicts) with every string made safe."""
    if isinstance(value, str):
        return terminal_safe(value)
    if isinstance(value, list):
        return [terminal_safe_all(v) for v in value]
    if isinstance(value, dict):
        return {k: terminal_safe_all(v) for k, v in value.items()}
    return value


def has_visible_text(text: str) -> bool:
    """Whether ``text`` shows anything: a text of zero-width characters, joiners and
    spaces is as empty as ``""``."""
    return any(unicodedata.category(c) not in _INVISIBLE for c in text)
