"""The labels people give critical questions, and the labels of released files that
are read as one of them.

"Benchmarking Critical Questions Generation" (section 3.3) labels each question
Useful, Unhelpful or Invalid, and asks annotators for a reason when they choose
Invalid; a released file may carry such a reason in place of its label.
"""

from __future__ import annotations

from typing import Any

from maieutic.data.files import type_name
from maieutic.data.flags import Flag
from maieutic.errors import DataError

USEFUL = "Useful"
"""The label a scorer learns to predict (its positive class)."""
LABELS: tuple[str, ...] = (USEFUL, "Unhelpful", "Invalid")
"""The three human labels of a reference critical question."""

KNOWN_REASONS: dict[str, str] = {"Wrong reasoning": "Invalid"}
"""Labels found in released files that are one of the paper's reasons for a label
rather than a label: "its reasoning is not right" is reason (1) for Invalid
("Benchmarking Critical Questions Generation", section 3.3). Read as that label and
flagged; the benchmark script, which never checks labels, scores it as not Useful too."""


def read_label(label: Any, at: str, *, where: str, flags: list[Flag], item: str) -> str:
    """A human label: one of ``LABELS``, or a known reason read as its label and
    flagged; anything else is an error naming the path."""
    if label in LABELS:
        return label
    if isinstance(label, str) and label in KNOWN_REASONS:
        mapped = KNOWN_REASONS[label]
        flags.append(
            Flag(
                file=where,
                at=at,
                code="label-is-a-reason",
                message=f"label {label!r} is one of the paper's reasons for {mapped}: "
                f"read as {mapped}",
                item=item,
            )
        )
        return mapped
    raise DataError(
        f"{at}: unknown label {label!r} (expected one of {', '.join(LABELS)})", where=where
    )


def reason_of(raw: dict[str, Any], where: str, *, at: str) -> str | None:
    """The released ``reason`` field of a question (a string, or absent)."""
    reason = raw.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise DataError(f"{at}.reason: expected a string, found {type_name(reason)}", where)
    return reason


__all__ = ["KNOWN_REASONS", "LABELS", "read_label", "reason_of"]
