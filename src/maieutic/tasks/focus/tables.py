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

    def span(key: str, *, metric: str, type_id: str) -> Any:
        return summary.get(key, {}).get(metric, {}).get("by_type", {}).get(type_id)

    for type_id in typology().ids:
        table.add_row(
            typology().name(type_id),
            str(per_category[type_id]["support"]),
            fmt(per_category[type_id]["f1"], "{:.3f}"),
            fmt(per_open[type_id]["f1"], "{:.3f}"),
            fmt(span("spans", metric="jaccard", type_id=type_id), "{:.3f}"),
            fmt(span("spans_all", metric="jaccard", type_id=type_id), "{:.3f}"),
            fmt(span("spans", metric="rouge_l", type_id=type_id), "{:.3f}"),
            fmt(span("spans", metric="embedding", type_id=type_id), "{:.3f}"),
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


def _table(title: str, headers: tuple[str, ...]) -> Table:
    table = Table(title=title, title_justify="left")
    for header in headers:
        table.add_column(header, justify="left" if header in ("type", "category") else "right")
    return table


def label_statistics_table(report: dict[str, Any]) -> Table:
    """Per type: Gwet's AC1, Krippendorff's alpha (Table 17) and the applicability of
    appendix A.3 (individual yes judgements over all judgements)."""
    table = _table(
        "focus · chance-corrected agreement and applicability per type",
        ("type", "Fleiss κ", "Gwet AC1", "Kripp. α", "yes", "no", "applicable"),
    )
    for type_id, row in report.items():
        share = row.get("applicability") or {}
        table.add_row(
            typology().name(type_id),
            fmt(row.get("fleiss"), "{:.3f}"),
            fmt(row.get("gwet_ac1"), "{:.3f}"),
            fmt(row.get("krippendorff_alpha"), "{:.3f}"),
            str(share.get("applicable", "–")),
            str(share.get("not_applicable", "–")),
            fmt(share.get("share"), "{:.1%}"),
        )
    return table


def pairwise_table(report: dict[str, Any]) -> Table:
    """Per type and annotator pair: observed agreement (Table 22) and Cohen's kappa
    (Table 18)."""
    pairs = sorted({p for row in report.values() for p in row.get("pairwise", {})})
    headers = [f"{p} {what}" for p in pairs for what in ("obs", "κ")]
    table = _table("focus · annotator pairs per type", ("type", *headers))
    for type_id, row in report.items():
        cells = []
        for pair in pairs:
            found = row.get("pairwise", {}).get(pair, {})
            cells += [fmt(found.get("observed"), "{:.3f}"), fmt(found.get("kappa"), "{:.3f}")]
        table.add_row(typology().name(type_id), *cells)
    return table


def span_similarity_table(report: dict[str, Any]) -> Table:
    """Span similarity between annotators as the paper's Table 15 reports it (word
    Jaccard, BiJaccard, edit similarity), with the pairs of spans behind it."""
    table = _table(
        "focus · span similarity between annotators (paper's Table 15 metrics)",
        ("type", "arguments", "Jacc (words)", "BiJacc", "edit"),
    )
    for type_id, row in report.items():
        spans = row.get("spans", {})
        table.add_row(
            typology().name(type_id),
            str(row.get("n_span_items")),
            *(fmt(spans.get(m), "{:.3f}") for m in ("jaccard_words", "bijaccard", "edit")),
        )
    return table


def category_table(categories: dict[str, Any]) -> Table:
    """Both types of a category together (Table 16)."""
    table = _table(
        "focus · both types of a category together (F+G)",
        ("category", "judgements", "Fleiss κ", "Gwet AC1", "Kripp. α"),
    )
    for category, row in categories.items():
        table.add_row(
            category,
            str(row.get("n_items")),
            *(fmt(row.get(k), "{:.3f}") for k in ("fleiss", "gwet_ac1", "krippendorff_alpha")),
        )
    return table
