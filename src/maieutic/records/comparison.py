"""The file ``maieutic compare --out`` writes: systems tested against a baseline."""

from __future__ import annotations

from typing import Any

from maieutic.records.base import Record, optional, record


@record
class ComparisonRecord(Record):
    """``maieutic.compare/1``: each system's score, and for each pair compared the
    difference, its paired-bootstrap interval over the task's units, the
    approximate-randomization p-value and what it means in one sentence."""

    FORMAT = "maieutic.compare/1"
    WRITTEN_BY = "maieutic compare RESULTS… --out FILE"
    HOLDS_RESULTS = True

    task: str
    provenance: dict[str, Any] | None = optional()
    unit: str
    """What was resampled and swapped ("interventions", "arguments", …)."""
    n_units: int
    signature: str
    """The signature every system shares (generator and seed left out)."""
    settings: dict[str, Any]
    """{"bootstrap_resamples", "randomization_trials", "confidence", "seed"}."""
    method: str
    baseline: str
    systems: list[dict[str, Any]]
    """{"name", "score", "sources", "signatures"} per system."""
    comparisons: list[dict[str, Any]]
    """{"baseline", "other", "difference", "low", "high", "p_value", "significant",
    "exact", "n_trials", "n_undefined", "sentence"} per pair."""
    notes: list[str] | None = optional()
