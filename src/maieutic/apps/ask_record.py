"""The JSON that ``maieutic ask --format json`` (and the web app's Ask) writes."""

from __future__ import annotations

from typing import Any

from maieutic.records.base import Record, record


@record
class AskRecord(Record):
    """``maieutic.ask/1``: the questions found for one text, each part with its
    component's signature."""

    FORMAT = "maieutic.ask/1"
    WRITTEN_BY = "maieutic ask TEXT --format json (standard output)"
    NOT_RESULTS = "the output of maieutic ask, not a results file"

    text: str
    source: str
    cqs: list[dict[str, Any]]
    focus: list[dict[str, Any]]
    aura: dict[str, Any] | None
    """The AURA-assessed question set of a document (null for a paragraph)."""
    signatures: dict[str, str]
    warnings: list[str]
    failures: list[str]
    seconds: float
