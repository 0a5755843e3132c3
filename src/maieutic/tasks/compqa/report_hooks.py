"""What the CompQA task hands the report besides its blocks: its score as the mean
rubric total of completely scored answers, and its own formats (agreement tables and
leaderboards, shown as their figures and tables)."""

from __future__ import annotations

from typing import Any

from maieutic.report.hooks import ItemStatistic, ReportFormat, item_records, mean, numbers
from maieutic.tasks.compqa.records import (
    CompqaHumanAgreement,
    CompqaJudgeAgreement,
    CompqaRulesAgreement,
    CompqaTable,
)


def interval_statistic(result: Any) -> ItemStatistic | str:
    """The mean total over the answers with all 15 criteria scored."""
    totals = numbers(item_records(result), "score")
    if not totals:
        return "no answer has all 15 criteria scored"
    return ItemStatistic(totals, mean, "mean rubric total of completely scored answers")


FORMATS = (
    ReportFormat(CompqaHumanAgreement.FORMAT),
    ReportFormat(CompqaRulesAgreement.FORMAT),
    ReportFormat(CompqaJudgeAgreement.FORMAT),
    ReportFormat(CompqaTable.FORMAT),
)
"""Shown as their figures and tables (the generic view)."""
