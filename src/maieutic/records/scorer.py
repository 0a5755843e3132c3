"""The manifest of a learned scorer (``manifest.json`` beside ``model.npz``)."""

from __future__ import annotations

from typing import Any

from maieutic.records.base import Record, optional, record


@record
class ScorerManifest(Record):
    """``maieutic.scorer/1``: what a learned scorer predicts, its threshold, the model
    and features it was fitted with, its training data and cross-validated figures."""

    FORMAT = "maieutic.scorer/1"
    WRITTEN_BY = "maieutic train scorer --out DIR (DIR/manifest.json)"
    NOT_RESULTS = "a learned scorer's manifest, not a results file"

    task: str
    positive: str
    classes: list[str]
    threshold: float
    threshold_rule: str | None = optional()
    model: dict[str, Any]
    features: dict[str, Any]
    """{"version", "encoder", "encoder_model"}."""
    training: dict[str, Any]
    """{"data", "data_sha256", "n_pairs", "n_groups", "seed", ...the examples' source}."""
    trained_contexts: list[str] | None = optional()
    cv: dict[str, Any] | None = optional()
    maieutic_version: str | None = optional()
    recipe: dict[str, Any] | None = optional()
    """How to train it again: {"command"} (not part of the scorer's identity)."""
