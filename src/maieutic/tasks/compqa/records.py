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
    human_rows_left_out: int | None = optional()
    """People's rows left out as unscored or partly scored (only when the table is
    drawn from people's score files)."""


@record
class CompqaBreakdown(Record):
    """``maieutic.compqa.breakdown/1``: mean rubric scores with one column per judge
    (people included), by generator, aspect or scenario (the paper's Tables 3–4 and
    Figures 6–7)."""

    FORMAT = "maieutic.compqa.breakdown/1"
    WRITTEN_BY = "maieutic compqa breakdown --out FILE"
    HOLDS_RESULTS = True

    provenance: dict[str, Any] | None = optional()
    signature: dict[str, Any] | None = optional()
    signature_string: str | None = optional()
    by: str
    average: str
    spread: str
    """What the ± is."""
    rows: list[dict[str, Any]]
    """{"row", "part", "columns": {judge: {"mean", "spread", "n", "n_cells",
    "n_spread_cells", "n_incomplete"}}} per row and part (total, structure, relevance,
    quality); ``n_spread_cells`` is absent in files written before it was kept."""
    human_rows_left_out: dict[str, int] | None = optional()
    """Per column drawn from people's score files: their rows left out as unscored or
    partly scored."""


@record
class CompqaExtremes(Record):
    """``maieutic.compqa.extremes/1``: how people score the answers a judge scored
    highest and lowest, and the reverse, by generator (the paper's Figure 8)."""

    FORMAT = "maieutic.compqa.extremes/1"
    WRITTEN_BY = "maieutic compqa extremes --out FILE"
    HOLDS_RESULTS = True

    provenance: dict[str, Any] | None = optional()
    signature: dict[str, Any] | None = optional()
    signature_string: str | None = optional()
    counts: dict[str, int] | None = optional()
    panels: list[dict[str, Any]]
    """{"picked_by", "end", "shown", "bound", "rows": [{"generator", "n", "mean", "sd",
    "min", "median", "max", "counts"}]} per panel."""
