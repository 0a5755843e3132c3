"""Files only the critical-questions task writes: its meta-evaluations.

These records belong to the task (``tasks/cqs/records.py`` once the task owns its
formats); they import nothing but ``maieutic.records.base``.
"""

from __future__ import annotations

from typing import Any

from maieutic.records.base import Record, optional, record
from maieutic.registry import Spec


@record
class CqsMetaEval(Record):
    """``maieutic.meta-eval/2``: agreement of a CQs evaluator with the human labels
    (kappas, NAE rate, confusion), per question, on references left out in turn or on
    labelled system outputs, with an optional threshold sweep and references curve."""

    FORMAT = "maieutic.meta-eval/2"
    WRITTEN_BY = "maieutic meta-eval cqs --out FILE"
    HOLDS_RESULTS = True

    task: str | None = optional()
    provenance: dict[str, Any] | None = optional()
    evaluator: Spec | None = optional()
    signature: dict[str, Any]
    signature_string: str | None = optional()
    report: dict[str, Any]
    """{"n", "n_unscored", "kappa_nae_kept", "kappa_nae_dropped", "n_labelled",
    "nae_rate", "confusion": {human: {predicted: count}}, "kappa_useful_nae_kept",
    "kappa_useful_nae_dropped", "intervals": {"unit", "n_units", "confidence",
    "n_resamples", "seed", "kappa_nae_kept": {"low", "high", "n_undefined"},
    "kappa_useful_nae_kept": {…}}} (``intervals`` in files written from issue 63 on)."""
    seconds: float | None = optional()
    items: list[dict[str, Any]] | None = optional()
    """One per reference question: ids, text, human and predicted label, similarity."""
    sweep: dict[str, Any] | None = optional()
    """With --sweep: {"rows": [figures per threshold], "chosen": the chosen row}."""
    on: str | None = optional()
    """What was judged: ``references`` (each left out in turn; also when absent) or
    ``outputs`` (generated questions people labelled, ``--outputs``)."""
    outputs: dict[str, Any] | None = optional()
    """With --outputs: {"source", "fingerprint", "n", "n_references_skipped", "flags"}."""
    flags: list[dict[str, Any]] | None = optional()
    """What the inputs hold that was read as the benchmark reads it, flagged."""
    curve: dict[str, Any] | None = optional()
    """With --curve: {"batch", "draws", "seed", "rows": [{"extra_references",
    "kappa_nae_kept", "kappa_nae_kept_sd", "kappa_nae_dropped", "kappa_nae_dropped_sd",
    "nae_rate", "nae_rate_sd"}]}."""


@record
class CqsCompare(Record):
    """``maieutic.cqs-compare/2``: Cohen's kappa between CQs evaluators over the
    questions of several submissions, and the correlation of the scores they give."""

    FORMAT = "maieutic.cqs-compare/2"
    WRITTEN_BY = "maieutic meta-eval cqs-compare --out FILE"
    HOLDS_RESULTS = True

    provenance: dict[str, Any] | None = optional()
    evaluator_specs: dict[str, Spec] | None = optional()
    evaluators: list[str]
    signatures: dict[str, str]
    kappa: list[list[float | None]]
    n_questions: int | None = optional()
    overall: dict[str, list[float | None]]
    """Each evaluator's score of each submission."""
    submissions: list[str]
    rankings: list[dict[str, Any]] | None = optional()
    """Pearson and Spearman between each pair of evaluators' scores (a string saying
    why, when undefined)."""
    flags: list[dict[str, Any]] | None = optional()
    """What the inputs hold that was read as the benchmark reads it, flagged."""


@record
class CqsStats(Record):
    """``maieutic.cqs-stats/1``: what labelled critical-questions datasets hold, as a
    whole and per source corpus."""

    FORMAT = "maieutic.cqs-stats/1"
    WRITTEN_BY = "maieutic cqs stats --out FILE"
    HOLDS_RESULTS = True

    provenance: dict[str, Any] | None = optional()
    files: list[dict[str, Any]]
    """One per file: {"name", "source", "signature", "signature_string", "statistics":
    {"all": figures, "by_dataset": {source: figures}}}."""
