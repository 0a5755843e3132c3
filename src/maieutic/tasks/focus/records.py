"""Files only the FOCUS task writes besides its benchmark layouts: annotator agreement.

This record belongs to the task (``tasks/focus/records.py`` once the task owns its
formats); it imports nothing but ``maieutic.records.base``.
"""

from __future__ import annotations

from typing import Any

from maieutic.records.base import Record, optional, record


@record
class FocusAgreement(Record):
    """``maieutic.focus.agreement/1``: agreement among annotators per weakness type
    (observed agreement, Fleiss' kappa, PABAK, Gwet's AC1, Krippendorff's alpha,
    applicability, pairwise agreement, span similarity), per category (both types
    together) and the signature; files written before the last three load as they are."""

    FORMAT = "maieutic.focus.agreement/1"
    WRITTEN_BY = "maieutic meta-eval focus-humans --out FILE"
    HOLDS_RESULTS = True

    gold: str
    dataset: str
    """The gold file's fingerprint."""
    provenance: dict[str, Any] | None = optional()
    types: dict[str, dict[str, Any]]
    categories: dict[str, dict[str, Any]] | None = optional()
    """Both types of each category together (Fleiss, Gwet's AC1, Krippendorff's alpha)."""
    signature: dict[str, Any] | None = optional()
    signature_string: str | None = optional()
