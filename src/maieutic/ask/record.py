"""The JSON that ``maieutic ask --format json`` (and the web app's Ask) writes."""

from __future__ import annotations

from typing import Any

from maieutic.records.base import Record, optional, record


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
    origins: dict[str, str] | None = optional()
    """Which generator wrote the critical (``cqs``) and Socratic (``focus``) questions,
    in words, with why the offline one stood in for the model when it did (absent
    from files written before it was added)."""
    none: dict[str, str] | None = optional()
    """A part with no question (``cqs``): why, and what would help ("no complete claim
    found: try --llm with a model"); absent where every part has questions, and from
    files written before it was added."""
    warnings: list[str]
    failures: list[str]
    seconds: float
