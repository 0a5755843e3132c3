"""Files only the CompQA task writes: agreement of annotators, of the judge and of the
rule-based judge with people, and the leaderboard table.

These records belong to the task (``tasks/compqa/records.py`` once the task owns its
formats); they import nothing but ``maieutic.records.base``. Its SFT export is JSON
Lines in the chat layout of fine-tuning tools, with no format field (see
docs/formats.md).
"""

from __future__ import annotations

from typing import Any

from maieutic.records.base import Record, optional, record


@record
class CompqaHumanAgreement(Record):
    """``maieutic.compqa.human-agreement/2``: two annotators' agreement per criterion,
    pooled, and on the total (Krippendorff's alpha, Spearman)."""

    FORMAT = "maieutic.compqa.human-agreement/2"
    WRITTEN_BY = "maieutic meta-eval compqa-humans --out FILE"
    HOLDS_RESULTS = True

    provenance: dict[str, Any] | None = optional()
    signature: dict[str, Any] | None = optional()
    signature_string: str | None = optional()
    n_pairs: int
    rows: list[dict[str, Any]]
    """{"column", "n", "alpha_interval", "alpha_ordinal", "spearman", ...} per row."""


@record
class CompqaRulesAgreement(Record):
    """``maieutic.compqa.rules-agreement/1``: the rule-based judge against people, per
    criterion it scores."""

    FORMAT = "maieutic.compqa.rules-agreement/1"
    WRITTEN_BY = "maieutic meta-eval compqa --rules --out FILE"
    HOLDS_RESULTS = True

    provenance: dict[str, Any] | None = optional()
    rows: list[dict[str, Any]]


@record
class CompqaJudgeAgreement(Record):
    """``maieutic.compqa.judge-agreement/1``: the LLM judge against people, all criteria
    concatenated and on the total, and optionally per criterion."""

    FORMAT = "maieutic.compqa.judge-agreement/1"
    WRITTEN_BY = "maieutic meta-eval compqa --out FILE"
    HOLDS_RESULTS = True

    provenance: dict[str, Any] | None = optional()
    signature: dict[str, Any] | None = optional()
    signature_string: str | None = optional()
    counts: dict[str, int] | None = optional()
    """How the answers matched (judged, matched, left out, ...)."""
    rows: list[dict[str, Any]]
    per_criterion: list[dict[str, Any]] | None = optional()


@record
class CompqaTable(Record):
    """``maieutic.compqa.table/1``: mean ± std of the rubric total and of each criterion
    group per generator and scenario."""

    FORMAT = "maieutic.compqa.table/1"
    WRITTEN_BY = "maieutic compqa table --out FILE"
    HOLDS_RESULTS = True

    signature: dict[str, Any] | None = optional()
    """The scored answers' hash and what made their scores (absent in files written
    before the table carried it)."""
    signature_string: str | None = optional()
    cells: list[dict[str, Any]]
    """{"generator", "scenario", "n", "n_incomplete", "total", "groups"} per cell."""
