"""How the web app's Ask page shows an ``ask`` result: the templates of its parts
(``templates/``: what the page offers, and the result), and the spans it marks in
the text. ``ask`` composes the tasks; the web app names none of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

TEMPLATES = Path(__file__).resolve().parent / "templates"
"""``ask_intro.html`` (what the page gives) and ``ask_result.html`` (one result)."""


def marked_spans(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The spans the page marks in the text (``start``/``end`` offsets), numbered as
    the Socratic questions are listed."""
    spans = result.get("focus")
    return [s for s in spans if isinstance(s, dict)] if isinstance(spans, list) else []
