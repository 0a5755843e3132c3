"""Files only the AURA task writes: its meta-evaluation, threshold sweep, agreement
with human preferences and set comparison.

These records belong to the task (``tasks/aura/records.py`` once the task owns its
formats); they import nothing but ``maieutic.records`` and the shared result type.
"""

from __future__ import annotations

from typing import Any

from maieutic.evaluate.result import EvalResult
from maieutic.records.base import Record, optional, record
from maieutic.registry import Spec


@record
class AuraMetaEval(Record):
    """``maieutic.aura.meta-eval/1``: how AURA's answerability agrees with human ratings
    (QGEval), per question and per system."""

    FORMAT = "maieutic.aura.meta-eval/1"
    WRITTEN_BY = "maieutic meta-eval aura --out FILE"
    HOLDS_RESULTS = True

    signature: dict[str, Any]
    evaluator: Spec | None = optional()
    provenance: dict[str, Any] | None = optional()
    n_questions: int
    n_passages: int | None = optional()
    n_unanswerable: int | None = optional()
    # a figure that is undefined on the data is written as null, never left out
    spearman_question: float | None = None
    roc_auc_unanswerable: float | None = None
    spearman_system_answerable: float | None = None
    spearman_system_score: float | None = None
    systems: dict[str, dict[str, Any]]
    """{system: {"answerable", "score", "coverage", "human", "n", ...}}."""
    learned: dict[str, Any] | None = optional()
    """With a learned answerability scorer: its own figures."""


@record
class AuraSweep(Record):
    """``maieutic.aura.sweep/1``: each metric's mean over question sets per threshold,
    and the threshold chosen."""

    FORMAT = "maieutic.aura.sweep/1"
    WRITTEN_BY = "maieutic aura sweep --out FILE"
    HOLDS_RESULTS = True

    provenance: dict[str, Any] | None = optional()
    signature: dict[str, Any] | None = optional()
    """The evaluator's settings (entropy and non-redundancy variants among them)."""
    rows: list[dict[str, Any]]
    chosen: float
    n_sets: int | None = optional()
    rule: str | None = optional()


@record
class AuraAgree(Record):
    """``maieutic.aura.agree/1``: agreement of the pipeline's preferences between two
    question sets with people's votes."""

    FORMAT = "maieutic.aura.agree/1"
    WRITTEN_BY = "maieutic meta-eval aura-preferences --out FILE"
    HOLDS_RESULTS = True

    provenance: dict[str, Any] | None = optional()
    signature: dict[str, Any] | None = optional()
    """The evaluator's settings, the preference file's hash, the aggregate and tie
    rules (absent from files written before they were recorded: those used ``vote``)."""
    n_items: int
    n_tied_skipped: int
    n_tie_broken: int | None = optional()
    aggregate_rule: str | None = optional()
    per_metric: dict[str, dict[str, Any]]
    """{metric: {"agree", "n", "proportion"}}."""
    metric_ties: dict[str, int] | None = optional()
    aggregate: dict[str, Any]
    p_annotator_agrees_given_agree: float | None
    p_annotator_agrees_given_disagree: float | None


@record
class AuraCompare(Record):
    """``maieutic.aura.compare/1``: two question sets on one document, each scored, and
    which is preferred per metric and overall."""

    FORMAT = "maieutic.aura.compare/1"
    WRITTEN_BY = "maieutic aura compare --out FILE"
    HOLDS_RESULTS = True

    provenance: dict[str, Any] | None = optional()
    sets: list[EvalResult]
    preference: dict[str, Any] | None = optional()
    metrics: list[str] | None = optional()
