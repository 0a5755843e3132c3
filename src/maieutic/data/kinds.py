"""Recognising what kind of file a user gave, so a mix-up gets a message that says so.

Users pass the wrong file more often than a broken one: the labelled dataset where a
submission belongs (or the other way round), a results file or a generation record
instead of the submission it describes, a CSV export. Each is recognised from its
content and named in the error, instead of a generic "missing field".
"""

from __future__ import annotations

from typing import Any

RESULTS = "results"
GENERATION_RECORD = "generation-record"
LABELLED_DATASET = "labelled-dataset"
UNLABELLED_RECORDS = "unlabelled-records"
OTHER = "other"


def _question_lists(records: dict[str, Any]) -> list[list[Any]]:
    return [
        r["cqs"] for r in records.values() if isinstance(r, dict) and isinstance(r.get("cqs"), list)
    ]


def json_kind(data: Any) -> str:
    """Classify a parsed JSON top level (before validating it as anything)."""
    if not isinstance(data, dict):
        return OTHER
    fmt = data.get("format")
    if isinstance(fmt, str) and fmt.startswith("maieutic."):
        return GENERATION_RECORD if "generation" in fmt else RESULTS
    records = [r for r in data.values() if isinstance(r, dict)]
    has_text = any(isinstance(r.get("intervention"), str) for r in records)
    labels = [q.get("label") for cqs in _question_lists(data) for q in cqs if isinstance(q, dict)]
    # The benchmark's own pipeline writes generated questions into copies of the dataset
    # records, and its evaluation script adds labels that include not_able_to_evaluate;
    # a dataset has reference labels only, on every question, and no "Missing CQs".
    reference_labels = {"Useful", "Unhelpful", "Invalid"}
    missing = any(isinstance(r, dict) and r.get("cqs") == "Missing CQs" for r in records)
    if has_text and labels and set(labels) <= reference_labels and not missing:
        return LABELLED_DATASET
    if records and not has_text and any("cqs" in r for r in records):
        return UNLABELLED_RECORDS
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


def mixup_message(kind: str, expected: str) -> str | None:
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
