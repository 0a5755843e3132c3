"""``maieutic ask``: critical questions, Socratic questions and (for a long document)
an assessed question set for a plain text, without wrapping it in a dataset first.

The names below load on first use: a results reader that imports ``maieutic.ask.record``
for its file format must not pay for the pipeline and its models' libraries."""

from __future__ import annotations

import importlib
from typing import Any

_NAMES = {
    "AskOptions": "maieutic.ask.pipeline",
    "AskResult": "maieutic.ask.pipeline",
    "ask_text": "maieutic.ask.pipeline",
    "read_input": "maieutic.ask.reading",
}

__all__ = ["AskOptions", "AskResult", "ask_text", "read_input"]


def __getattr__(name: str) -> Any:
    if name in _NAMES:
        return getattr(importlib.import_module(_NAMES[name]), name)
    raise AttributeError(f"module 'maieutic.ask' has no attribute {name!r}")
