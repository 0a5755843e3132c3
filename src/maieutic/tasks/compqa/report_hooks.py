"""What the CompQA task hands the report besides its blocks: its score as the mean
rubric total of completely scored answers, and its own formats (agreement tables and
leaderboards, shown as their figures and tables)."""

from __future__ import annotations

from typing import Any

from maieutic.evaluate.units import Units, grouped_mean, item_values
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


def question_key(record: dict[str, Any]) -> str:
    """The question an answer record answers (its objects and aspect)."""
    return " | ".join(str(record.get(k) or "") for k in ("object1", "object2", "aspect"))


def paired_units(result: Any) -> Units:
    """Each question adds the totals of its completely scored answers and their count
    (a file with several answers to one question keeps them together)."""
    ids, values = item_values(item_records(result), question_key, "score")
    return grouped_mean(ids, values, "questions")


FORMATS = (
    ReportFormat(CompqaHumanAgreement.FORMAT),
    ReportFormat(CompqaRulesAgreement.FORMAT),
    ReportFormat(CompqaJudgeAgreement.FORMAT),
    ReportFormat(CompqaTable.FORMAT),
)
"""Shown as their figures and tables (the generic view)."""
