"""What the AURA task hands the report besides its blocks: why its score has no
interval over items, and its own formats (answerability against people, a threshold
sweep, two sets compared, agreement with preferences)."""

from __future__ import annotations

from typing import Any

from maieutic.evaluate.units import Units, whole_result_unit
from maieutic.report.hooks import ReportFormat
from maieutic.tasks.aura.records import AuraAgree, AuraCompare, AuraMetaEval, AuraSweep

COMPARE_FORMAT = AuraCompare.FORMAT
"""``maieutic aura compare``: two question sets (their results under ``sets``) and the
preferred one."""


def interval_statistic(result: Any) -> str:
    """None: coverage, non-redundancy and entropy are properties of the whole set."""
    del result
    return "a set-level score (coverage, non-redundancy and entropy are not item means)"


def paired_units(result: Any) -> Units:
    """One unit per result, its document: systems are compared over documents (results
    of one set name on several documents make one system)."""
    return whole_result_unit(str(result.signature.dataset), result.score, "documents")


def _meta_eval(file: Any) -> tuple[str, list[Any]]:
    from maieutic.tasks.aura.report_files import meta_eval_section

    return meta_eval_section(file)


def _sweep(file: Any) -> tuple[str, list[Any]]:
    from maieutic.tasks.aura.report_files import sweep_section

    return sweep_section(file)


FORMATS = (
    ReportFormat(AuraMetaEval.FORMAT, section=_meta_eval),
    ReportFormat(AuraSweep.FORMAT, section=_sweep),
    ReportFormat(COMPARE_FORMAT, results="sets"),
    ReportFormat(AuraAgree.FORMAT),
)
