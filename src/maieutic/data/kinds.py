"""Recognising what kind of file a user gave, so a mix-up gets a message that says so.

Users pass the wrong file more often than a broken one: the labelled dataset where a
submission belongs (or the other way round), a results file or a generation record
instead of the submission it describes, a CSV export. Each is recognised from its
content and named in the error, instead of a generic "missing field". maieutic's own
files are recognised here; each task recognises its formats through ``add_classifier``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

RESULTS = "results"
GENERATION_RECORD = "generation-record"
LABELLED_DATASET = "labelled-dataset"
UNLABELLED_RECORDS = "unlabelled-records"
OTHER = "other"


_CLASSIFIERS: list[Callable[[dict[str, Any]], str | None]] = []


def add_classifier(classify: Callable[[dict[str, Any]], str | None]) -> None:
    """Let a task recognise its own formats: ``classify(data)`` gets a parsed JSON
    object that is no maieutic file and returns a kind (``LABELLED_DATASET``,
    ``UNLABELLED_RECORDS``…) or None."""
    if classify not in _CLASSIFIERS:
        _CLASSIFIERS.append(classify)


def json_kind(data: Any) -> str:
    """Classify a parsed JSON top level (before validating it as anything)."""
    if not isinstance(data, dict):
        return OTHER
    fmt = data.get("format")
    if isinstance(fmt, str) and fmt.startswith("maieutic."):
        return GENERATION_RECORD if "generation" in fmt else RESULTS
    for classify in _CLASSIFIERS:
        if (kind := classify(data)) is not None:
            return kind
    return OTHER


def text_kind(text: str) -> str | None:
    """A name for text that is not JSON but looks like a known format, else None."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    if first.lstrip().startswith(("{", "[")):
        return None
    if first.count("\t") >= 1:
        return "TSV (tab-separated values)"
    if first.count(",") >= 1 and not first.rstrip().endswith(("?", ".")):
        return "CSV (comma-separated values)"
    return None


def mixup_message(kind: str, *, expected: str) -> str | None:
    """The message for a file of ``kind`` given where ``expected`` belongs, or None."""
    if kind == RESULTS:
        return (
            f"this is a maieutic results file, not {expected} (its runs name the "
            "submission they scored under 'source')"
        )
    if kind == GENERATION_RECORD:
        return (
            f"this is a generation record (.meta.json), not {expected}; the submission "
            "is the file of the same name without '.meta'"
        )
    if kind == UNLABELLED_RECORDS and expected == "a labelled dataset":
        return (
            "this looks like a submission (questions without intervention texts), not a "
            "labelled dataset — were --data and the submission swapped?"
        )
    return None
