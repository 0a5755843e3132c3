"""The sections of the critical-questions task's own files: an evaluator's agreement
with the human labels (kappa, confusion, the threshold sweep, every reference), and
several evaluators compared (kappa between them, the scores they give)."""

from __future__ import annotations

from typing import Any

from maieutic.report.html.file_blocks import rows, signature_block, sweep_block
from maieutic.report.html.loader import InputFile
from maieutic.report.html.plots_grid import heatmap
from maieutic.report.html.tables import Header, Table, code, is_number, key_value, number
from maieutic.report.html.templating import Block, render

SHORT = {"not_able_to_evaluate": "NAE"}
"""Column names shortened in the confusion heatmap (the table keeps the full ones)."""


def _evaluator_name(data: dict[str, Any]) -> str:
    evaluator = data.get("evaluator")
    return evaluator.get("name", "?") if isinstance(evaluator, dict) else "?"


def _agreement_block(evaluator: str, report: dict[str, Any]) -> Block:
    figures = [("evaluator", evaluator)] + [
        (name, report.get(key))
        for key, name in (
            ("n", "references evaluated"),
            ("n_unscored", "unscored"),
            ("n_labelled", "labelled (not NAE)"),
            ("kappa_nae_kept", "Cohen's κ, NAE kept as a class"),
            ("kappa_nae_dropped", "Cohen's κ, NAE dropped"),
            ("nae_rate", "NAE rate"),
        )
    ]
    return Block(
        "Agreement with the human labels",
        "Each reference question is labelled by "
        "the evaluator against the other references of its intervention.",
        table=key_value(figures),
    )


def _confusion_block(confusion: Any) -> Block | None:
    if not isinstance(confusion, dict) or not confusion:
        return None
    humans = list(confusion)
    predicted = list(
        dict.fromkeys(p for row in confusion.values() if isinstance(row, dict) for p in row)
    )
    matrix = [
        [confusion[h].get(p) if is_number(confusion[h].get(p)) else None for p in predicted]
        for h in humans
    ]
    shown = [SHORT.get(p, p) for p in predicted]
    chart = heatmap(
        humans, shown, matrix, "Confusion: human (rows) × evaluator (columns)", "{:.0f}", vmin=0
    )
    table = Table([Header("human"), *(Header(p, numeric=True) for p in predicted)], sortable=False)
    for h, row in zip(humans, matrix, strict=True):
        table.add(h, *(number(v, "{:.0f}") for v in row))
    return Block("Confusion matrix", "", chart, table)


def _sweep(sweep: Any, evaluator: str) -> Block | None:
    if not isinstance(sweep, dict) or not rows(sweep.get("rows")):
        return None
    chosen = (
        sweep.get("chosen", {}).get("threshold") if isinstance(sweep.get("chosen"), dict) else None
    )
    series = [
        ("kappa_nae_kept", "κ, NAE kept"),
        ("kappa_nae_dropped", "κ, NAE dropped"),
        ("nae_rate", "NAE rate"),
    ]
    block = sweep_block(rows(sweep["rows"]), chosen, series, f"{evaluator}: agreement by threshold")
    block.note = "Chosen: the largest κ (NAE dropped) × (1 − NAE rate)."
    return block


def _references_block(records: Any) -> Block | None:
    fields = ("intervention_id", "reference_id", "text", "human", "predicted", "matched_label")
    items = [
        {
            **{k: "" if i.get(k) is None else str(i[k]) for k in fields},
            "similarity": i.get("similarity"),
        }
        for i in rows(records)
    ]
    if not items:
        return None
    return Block(
        "References",
        "Every reference with its human and evaluator labels.",
        html=render("cqs_meta_items.html.j2", items=items),
    )


def meta_eval_section(file: InputFile) -> tuple[str, list[Block]]:
    """``maieutic meta-eval cqs``: leave-one-out agreement with the human labels."""
    data, report = file.data, file.data["report"]
    evaluator = _evaluator_name(data)
    blocks = [
        _agreement_block(evaluator, report),
        signature_block(data),
        _confusion_block(report.get("confusion")),
        _sweep(data.get("sweep"), evaluator),
        _references_block(data.get("items")),
    ]
    return "CQs evaluator vs people", [b for b in blocks if b is not None]


def compare_section(file: InputFile) -> tuple[str, list[Block]]:
    """``maieutic meta-eval cqs-compare``: kappa between evaluators, score correlations."""
    data = file.data
    names = [str(n) for n in data["evaluators"]]
    matrix = [[v if is_number(v) else None for v in row] for row in data["kappa"]]
    chart = heatmap(names, names, matrix, "Cohen's κ between evaluators", vmin=0.0, vmax=1.0)
    table = Table(
        [Header("evaluator"), *(Header(n, numeric=True) for n in names), Header("signature")],
        sortable=False,
    )
    signatures = data["signatures"] if isinstance(data["signatures"], dict) else {}
    for name, row in zip(names, matrix, strict=True):
        table.add(name, *(number(v, "{:.3f}") for v in row), code(str(signatures.get(name, ""))))
    note = f"Over {data.get('n_questions', '?')} questions; NAE kept as a class."
    blocks = [Block("κ between evaluators", note, chart, table)]
    overall = data["overall"] if isinstance(data["overall"], dict) else {}
    scores = Table([Header("submission"), *(Header(n, numeric=True) for n in names)])
    for i, submission in enumerate(data["submissions"]):
        scores.add(
            str(submission), *(number((overall.get(n) or [None] * (i + 1))[i]) for n in names)
        )
    blocks.append(
        Block(
            "Scores by evaluator",
            "Each submission's overall score under each evaluator.",
            table=scores,
        )
    )
    rankings = Table(
        [
            Header("a"),
            Header("b"),
            Header("Pearson", numeric=True),
            Header("Spearman", numeric=True),
        ]
    )
    for r in rows(data.get("rankings")):
        rankings.add(
            str(r.get("a")),
            str(r.get("b")),
            number(r.get("pearson"), "{:.3f}"),
            number(r.get("spearman"), "{:.3f}"),
        )
    if rankings.rows:
        blocks.append(Block("Correlation of system scores", "", table=rankings))
    return "CQs evaluators compared", blocks
