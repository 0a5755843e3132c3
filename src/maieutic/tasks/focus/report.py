"""The FOCUS task: precision, recall and F1 of the weakness types (both modes, with and
without None of the Above), F1 per type, span similarity, and every argument with its
gold and predicted spans marked in the text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from maieutic.report.html.context import TextFinder
from maieutic.report.html.highlight import mark_spans
from maieutic.report.html.plots import grouped_bars
from maieutic.report.html.sections_common import Entry
from maieutic.report.html.tables import Table, headers, number
from maieutic.report.html.templating import Block, render

SPAN_METRICS = ("jaccard", "rouge_l", "edit", "embedding")


def _block(summary: dict[str, Any], mode: str, *, none: str) -> dict[str, Any]:
    found = summary.get("classification", {}).get(mode, {}).get(none)
    return found if isinstance(found, dict) else {}


def _classification_block(entries: Sequence[Entry]) -> Block:
    names = ("micro P", "micro R", "micro F1", "macro P", "macro R", "macro F1")
    table = Table(headers(["submission", "mode", "None class", *names], numeric_from=3))
    for e in entries:
        for mode in ("category", "open"):
            for none, shown in (("with_none", "included"), ("without_none", "left out")):
                scores = _block(e.result.summary, mode, none=none)
                if not scores:
                    continue
                cells = [
                    number((scores.get(avg) or {}).get(fig))
                    for avg in ("micro", "macro")
                    for fig in ("precision", "recall", "f1")
                ]
                table.add(
                    [
                        e.label,
                        mode + (" (scored)" if mode == e.result.summary.get("mode") else ""),
                        shown,
                        *cells,
                    ]
                )
    note = (
        "category: predictions outside the argument's two category types are dropped "
        "(the annotation protocol); open: every predicted type counts. The headline "
        "score is macro-F1 in the scored mode, None of the Above included."
    )
    return Block("Type classification", note, table=table)


def _per_type_block(entries: Sequence[Entry]) -> Block | None:
    from maieutic.tasks.focus.typology import typology

    per_system = [
        (
            e,
            _block(
                e.result.summary, e.result.summary.get("mode", "category"), none="with_none"
            ).get("per_class")
            or {},
        )
        for e in entries
    ]
    types = [t for t in typology().ids if any(t in p for _, p in per_system)]
    if not types:
        return None
    f1 = [f"F1 {e.label}" for e, _ in per_system]
    table = Table(headers(["type", "id", "support", *f1], numeric_from=2))
    for t in types:
        support = next((p[t].get("support") for _, p in per_system if t in p), None)
        table.add(
            [
                typology().name(t),
                t,
                number(support, "{}"),
                *(number((p.get(t) or {}).get("f1"), "{:.3f}") for _, p in per_system),
            ]
        )
    series = [(e.label, [(p.get(t) or {}).get("f1") for t in types]) for e, p in per_system]
    chart = grouped_bars(
        types, series, "F1", title="F1 per weakness type", value_format="{:.3f}", ceiling=1.0
    )
    return Block(
        "F1 per type",
        "In each result's scored mode, None of the Above included.",
        chart,
        table=table,
    )


def _span_block(entries: Sequence[Entry]) -> Block | None:
    table = Table(headers(["submission", "pairs", *SPAN_METRICS], numeric_from=2))
    for e in entries:
        for key, shown in (("spans", "gold span"), ("spans_all", "best of all annotators")):
            block = e.result.summary.get(key)
            if not isinstance(block, dict) or not block:
                continue
            table.add(
                [
                    e.label,
                    shown,
                    *(number((block.get(m) or {}).get("mean"), "{:.3f}") for m in SPAN_METRICS),
                ]
            )
    if not table.rows:
        return None
    note = "Mean similarity of predicted to gold spans over all scored span pairs."
    return Block("Span similarity", note, table=table)


def _argument(item: dict[str, Any], text: str) -> dict[str, Any]:
    spans = [s for s in item.get("spans") or [] if isinstance(s, dict)]
    gold = [str(s["gold"]) for s in spans if s.get("gold") and s.get("gold") != "Null"]
    predicted = [
        str(s["predicted"]) for s in spans if s.get("predicted") and s.get("predicted") != "Null"
    ]
    marked, missing = mark_spans(text, gold, predicted=predicted) if text else ("", [])
    rows = [
        {
            "type": str(s.get("type", "")),
            "slot": s.get("slot", ""),
            "gold": s.get("gold") or "",
            "predicted": s.get("predicted") or "",
            "scores": [
                number(s.get(m), "{:.3f}").content for m in ("jaccard", "rouge_l", "embedding")
            ],
        }
        for s in spans
    ]
    gold_types, predicted_types = item.get("gold") or [], item.get("predicted") or []
    return {
        "id": str(item.get("id", "")),
        "category": str(item.get("category") or ""),
        "gold": ", ".join(map(str, gold_types)) or "NONE",
        "predicted": ", ".join(map(str, predicted_types)) or "—",
        "exact": sorted(map(str, gold_types)) == sorted(map(str, predicted_types)),
        "missing": bool(item.get("missing")),
        "marked": marked,
        "not_found": missing,
        "spans": rows,
    }


def focus_blocks(entries: Sequence[Entry], finder: TextFinder) -> list[Block]:
    """The FOCUS-specific blocks of the task section."""
    blocks = [_classification_block(entries)]
    for block in (_per_type_block(entries), _span_block(entries)):
        if block is not None:
            blocks.append(block)
    systems = []
    for e in entries:
        texts = finder.texts(e.file, e.result)
        items = [
            _argument(i, texts.documents.get(str(i.get("id")), "")) for i in e.result.records()
        ]
        n_exact = sum(i["exact"] for i in items)
        systems.append({"entry": e, "texts": texts, "arguments": items, "n_exact": n_exact})
    note = "Every argument with its gold and predicted types; spans are marked in the argument."
    blocks.append(Block("Arguments", note, html=render("focus_items.html.j2", systems=systems)))
    return blocks
