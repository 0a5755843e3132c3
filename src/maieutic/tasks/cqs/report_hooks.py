"""What the critical-questions task hands the report besides its blocks: where the
interventions and reference questions are (the dataset named in the provenance), its
score as the mean over interventions, its own formats (an evaluator against people,
evaluators compared), and what a critical-questions file given instead of results is."""

from __future__ import annotations

from typing import Any

from maieutic.errors import DataError
from maieutic.evaluate.units import Units, grouped_mean, item_values
from maieutic.report.hooks import (
    DataFile,
    ItemStatistic,
    ReportFormat,
    Texts,
    TextSource,
    item_records,
    mean,
    numbers,
)
from maieutic.tasks.cqs.records import CqsCompare, CqsMetaEval, CqsStats


def read_texts(data: DataFile) -> Texts | None:
    """The interventions and references of the first dataset with the expected hash."""
    from maieutic.tasks.cqs.data import load_cq_dataset

    for path in data.paths:
        try:
            dataset = load_cq_dataset(path)
        except (DataError, OSError, ValueError):
            continue
        if dataset.fingerprint() == data.expected:
            return Texts(
                documents={k: v.intervention for k, v in dataset.interventions.items()},
                references={q.id: q.cq for v in dataset.interventions.values() for q in v.cqs},
                source=str(path),
            )
    return None


def interval_statistic(result: Any) -> ItemStatistic:
    """The overall score: the mean of the interventions' scores."""
    scores = numbers(item_records(result), "score")
    return ItemStatistic(scores, mean, "mean intervention score")


def paired_units(result: Any) -> Units:
    """Each intervention adds its score to the mean over interventions (an intervention
    whose every question went unscored under drop-and-rescale adds nothing)."""
    ids, values = item_values(
        item_records(result), lambda r: str(r.get("intervention_id")), "score"
    )
    return grouped_mean(ids, values, "interventions")


def input_hint(data: dict[str, Any]) -> str | None:
    """The report's message for a submission or a dataset given instead of results."""
    if all(isinstance(v, dict) and "cqs" in v for v in data.values()):
        return (
            "this looks like critical questions (a submission or a dataset), not results: "
            "evaluate it first (maieutic evaluate cqs … --out results.json) and report that"
        )
    return None


def _meta_eval(file: Any) -> tuple[str, list[Any]]:
    from maieutic.tasks.cqs.report_files import meta_eval_section

    return meta_eval_section(file)


def _compare(file: Any) -> tuple[str, list[Any]]:
    from maieutic.tasks.cqs.report_files import compare_section

    return compare_section(file)


def _stats(file: Any) -> tuple[str, list[Any]]:
    from maieutic.tasks.cqs.report_files import stats_section

    return stats_section(file)


TEXTS = TextSource("data_path", read_texts)
FORMATS = (
    ReportFormat(CqsMetaEval.FORMAT, section=_meta_eval),
    ReportFormat(CqsCompare.FORMAT, section=_compare),
    ReportFormat(CqsStats.FORMAT, section=_stats),
)
