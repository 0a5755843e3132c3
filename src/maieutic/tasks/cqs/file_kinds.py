"""Recognising a critical-questions file given in the wrong place (for
``maieutic.data.kinds``): the labelled dataset, or a submission's records (questions
without intervention texts) where the dataset belongs."""

from __future__ import annotations

from typing import Any

from maieutic.data import kinds

REFERENCE_LABELS = {"Useful", "Unhelpful", "Invalid"}
MISSING = "Missing CQs"


def _question_lists(records: dict[str, Any]) -> list[list[Any]]:
    return [
        r["cqs"] for r in records.values() if isinstance(r, dict) and isinstance(r.get("cqs"), list)
    ]


def file_kind(data: dict[str, Any]) -> str | None:
    """``kinds.LABELLED_DATASET`` or ``kinds.UNLABELLED_RECORDS`` when ``data`` (a
    parsed JSON object) looks like one, else None."""
    records = [r for r in data.values() if isinstance(r, dict)]
    has_text = any(isinstance(r.get("intervention"), str) for r in records)
    labels = [q.get("label") for cqs in _question_lists(data) for q in cqs if isinstance(q, dict)]
    labels = [label if isinstance(label, str) else repr(label) for label in labels]  # hashable
    # The benchmark's own pipeline writes generated questions into copies of the dataset
    # records, and its evaluation script adds labels that include not_able_to_evaluate;
    # a dataset has reference labels only, on every question, and no "Missing CQs".
    missing = any(r.get("cqs") == MISSING for r in records)
    if has_text and labels and set(labels) <= REFERENCE_LABELS and not missing:
        return kinds.LABELLED_DATASET
    if records and not has_text and any("cqs" in r for r in records):
        return kinds.UNLABELLED_RECORDS
    return None


kinds.add_classifier(file_kind)
