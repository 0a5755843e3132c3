"""Per-type tables of the FOCUS task: F1 per class and span similarity per type for one
submission, and annotation agreement per type."""

from __future__ import annotations

from typing import Any

from rich.table import Table

from maieutic.evaluate.result import EvalResult
from maieutic.report.tables import fmt
from maieutic.tasks.focus.typology import typology


def per_type_table(result: EvalResult) -> Table:
    """F1 per type in both modes, with span means per type (gold and all annotators)."""
    summary = result.summary
    table = Table(title=f"focus · {result.submission} · per type", title_justify="left")
    for header in (
        "type",
        "support",
        "F1 category",
        "F1 open",
        "Jaccard",
        "Jaccard all",
        "ROUGE-L",
        "emb",
    ):
        table.add_column(header, justify="left" if header == "type" else "right")
    per_category = summary["classification"]["category"]["with_none"]["per_class"]
    per_open = summary["classification"]["open"]["with_none"]["per_class"]

    def span(key: str, metric: str, type_id: str) -> Any:
        return summary.get(key, {}).get(metric, {}).get("by_type", {}).get(type_id)

    for type_id in typology().ids:
        table.add_row(
            typology().name(type_id),
            str(per_category[type_id]["support"]),
            fmt(per_category[type_id]["f1"], "{:.3f}"),
            fmt(per_open[type_id]["f1"], "{:.3f}"),
            fmt(span("spans", "jaccard", type_id), "{:.3f}"),
            fmt(span("spans_all", "jaccard", type_id), "{:.3f}"),
            fmt(span("spans", "rouge_l", type_id), "{:.3f}"),
            fmt(span("spans", "embedding", type_id), "{:.3f}"),
        )
    return table


def agreement_table(report: dict[str, Any]) -> Table:
    """Annotation agreement per type (observed, Fleiss' kappa, PABAK, span similarity)."""
    table = Table(title="focus · annotation agreement per type", title_justify="left")
    columns = ("type", "n", "observed", "Fleiss κ", "PABAK", "Jaccard", "ROUGE-L", "emb")
    for header in columns:
        table.add_column(header, justify="left" if header == "type" else "right")
    for type_id, row in report.items():
        spans = row.get("spans", {})
        table.add_row(
            typology().name(type_id),
            str(row.get("n_items")),
            fmt(row.get("observed"), "{:.3f}"),
            fmt(row.get("fleiss"), "{:.3f}"),
            fmt(row.get("pabak"), "{:.3f}"),
            *(fmt(spans.get(m), "{:.3f}") for m in ("jaccard", "rouge_l", "embedding")),
        )
    return table
