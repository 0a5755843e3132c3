"""The sections of the critical-questions task's own files: an evaluator's agreement
with the human labels (kappa, confusion, the threshold sweep, every reference), and
several evaluators compared (kappa between them, the scores they give)."""

from __future__ import annotations

from typing import Any

from maieutic.report.html.file_blocks import rows, signature_block, sweep_block
from maieutic.report.html.loader import InputFile
from maieutic.report.html.plots_grid import heatmap, line_chart
from maieutic.report.html.tables import Header, Table, code, headers, is_number, key_value, number
from maieutic.report.html.templating import Block, render

SHORT = {"not_able_to_evaluate": "NAE"}
"""Column names shortened in the confusion heatmap (the table keeps the full ones)."""


def _evaluator_name(data: dict[str, Any]) -> str:
    evaluator = data.get("evaluator")
    return evaluator.get("name", "?") if isinstance(evaluator, dict) else "?"


def _agreement_block(evaluator: str, report: dict[str, Any], on_outputs: bool) -> Block:
    figures = [("evaluator", evaluator)] + [
        (name, report.get(key))
        for key, name in (
            ("n", "system questions evaluated" if on_outputs else "references evaluated"),
            ("n_unscored", "unscored"),
            ("n_labelled", "labelled (not NAE)"),
            ("kappa_nae_kept", "Cohen's κ, NAE kept as a class"),
            ("kappa_nae_dropped", "Cohen's κ, NAE dropped"),
            ("nae_rate", "NAE rate"),
            ("kappa_useful_nae_kept", "Cohen's κ, Useful vs rest (NAE kept)"),
        )
        if key in report or key != "kappa_useful_nae_kept"
    ]
    intervals = report.get("intervals")
    if isinstance(intervals, dict):
        for key, name in (("kappa_nae_kept", "κ NAE kept"), ("kappa_useful_nae_kept", "κ Useful")):
            bounds = intervals.get(key) or {}
            if bounds.get("low") is not None:
                figures.append(
                    (
                        f"{name}: {intervals['confidence']:.0%} interval, bootstrap over "
                        f"{intervals['n_units']} {intervals['unit']}",
                        f"[{bounds['low']:.3f}, {bounds['high']:.3f}]",
                    )
                )
    note = (
        "Each question a system generated is labelled by the evaluator against the "
        "references of its intervention and compared with the label people gave it. "
        "NAE kept: the paper's manual_labeling setting (NAE never agrees with a person)."
        if on_outputs
        else "Each reference question is labelled by the evaluator against the other "
        "references of its intervention."
    )
    return Block("Agreement with the human labels", note, table=key_value(figures))


def _curve(curve: Any, evaluator: str) -> Block | None:
    if not isinstance(curve, dict) or not rows(curve.get("rows")):
        return None
    records = rows(curve["rows"])
    series = [("kappa_nae_kept", "κ, NAE kept"), ("nae_rate", "NAE rate")]
    xs = [float(r["extra_references"]) for r in records if is_number(r.get("extra_references"))]
    lines = [
        (label, [r.get(key) if is_number(r.get(key)) else None for r in records])
        for key, label in series
    ]
    chart = line_chart(
        xs,
        lines,
        "extra references per intervention",
        y_label="value",
        title=f"{evaluator}: references curve",
    )
    table = Table(
        headers(["extra references", "κ NAE kept", "± sd", "NAE rate", "± sd"], numeric_from=0)
    )
    for r in records:
        table.add(
            [
                number(r.get("extra_references"), "{:g}"),
                number(r.get("kappa_nae_kept"), "{:.3f}"),
                number(r.get("kappa_nae_kept_sd"), "{:.3f}"),
                number(r.get("nae_rate"), "{:.1%}"),
                number(r.get("nae_rate_sd"), "{:.1%}"),
            ]
        )
    note = (
        f"Other systems' labelled questions added as references, {curve.get('batch')} at a "
        f"time, never a question's own system's; mean and sd over {curve.get('draws')} "
        f"seeded orders (seed {curve.get('seed')})."
    )
    return Block("References curve", note, chart, table=table)


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
        humans,
        columns=shown,
        matrix=matrix,
        title="Confusion: human (rows) × evaluator (columns)",
        value_format="{:.0f}",
        vmin=0,
    )
    table = Table(headers(["human", *predicted]), sortable=False)
    for h, row in zip(humans, matrix, strict=True):
        table.add([h, *(number(v, "{:.0f}") for v in row)])
    return Block("Confusion matrix", "", chart, table=table)


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
    block = sweep_block(
        rows(sweep["rows"]), chosen, series, title=f"{evaluator}: agreement by threshold"
    )
    block.note = "Chosen: the largest κ (NAE dropped) × (1 − NAE rate)."
    return block


def _references_block(records: Any, on_outputs: bool) -> Block | None:
    fields = ("intervention_id", "reference_id", "text", "human", "predicted", "matched_label")
    items = [
        {
            **{k: "" if i.get(k) is None else str(i[k]) for k in fields},
            "similarity": i.get("similarity"),
        }
        for i in rows(records)
    ]
    if on_outputs:
        for item, record in zip(items, rows(records), strict=True):
            item["reference_id"] = f"#{record.get('position')}"
    if not items:
        return None
    return Block(
        "System questions" if on_outputs else "References",
        "Every question with its human and evaluator labels.",
        html=render("cqs_meta_items.html.j2", items=items),
    )


def meta_eval_section(file: InputFile) -> tuple[str, list[Block]]:
    """``maieutic meta-eval cqs``: leave-one-out agreement with the human labels."""
    data, report = file.data, file.data["report"]
    evaluator = _evaluator_name(data)
    on_outputs = data.get("on") == "outputs"
    blocks = [
        _agreement_block(evaluator, report, on_outputs),
        signature_block(data),
        _confusion_block(report.get("confusion")),
        _sweep(data.get("sweep"), evaluator),
        _curve(data.get("curve"), evaluator),
        _references_block(data.get("items"), on_outputs),
    ]
    return "CQs evaluator vs people", [b for b in blocks if b is not None]


def compare_section(file: InputFile) -> tuple[str, list[Block]]:
    """``maieutic meta-eval cqs-compare``: kappa between evaluators, score correlations."""
    data = file.data
    names = [str(n) for n in data["evaluators"]]
    matrix = [[v if is_number(v) else None for v in row] for row in data["kappa"]]
    chart = heatmap(
        names,
        columns=names,
        matrix=matrix,
        title="Cohen's κ between evaluators",
        vmin=0.0,
        vmax=1.0,
    )
    table = Table(
        [Header("evaluator"), *(Header(n, numeric=True) for n in names), Header("signature")],
        sortable=False,
    )
    signatures = data["signatures"] if isinstance(data["signatures"], dict) else {}
    for name, row in zip(names, matrix, strict=True):
        table.add([name, *(number(v, "{:.3f}") for v in row), code(str(signatures.get(name, "")))])
    note = f"Over {data.get('n_questions', '?')} questions; NAE kept as a class."
    blocks = [Block("κ between evaluators", note, chart, table=table)]
    overall = data["overall"] if isinstance(data["overall"], dict) else {}
    scores = Table(headers(["submission", *names]))
    for i, submission in enumerate(data["submissions"]):
        scores.add(
            [str(submission), *(number((overall.get(n) or [None] * (i + 1))[i]) for n in names)]
        )
    blocks.append(
        Block(
            "Scores by evaluator",
            "Each submission's overall score under each evaluator.",
            table=scores,
        )
    )
    rankings = Table(headers(["a", "b", "Pearson", "Spearman"], numeric_from=2))
    for r in rows(data.get("rankings")):
        rankings.add(
            [
                str(r.get("a")),
                str(r.get("b")),
                number(r.get("pearson"), "{:.3f}"),
                number(r.get("spearman"), "{:.3f}"),
            ]
        )
    if rankings.rows:
        blocks.append(Block("Correlation of system scores", "", table=rankings))
    return "CQs evaluators compared", blocks


def stats_section(file: InputFile) -> tuple[str, list[Block]]:
    """``maieutic cqs stats``: what critical-questions datasets hold."""
    from maieutic.tasks.cqs.data import LABELS

    table = Table(
        headers(
            [
                "set / source",
                "interventions",
                "mean chars",
                "schemes",
                "references",
                "per intervention",
                *LABELS,
            ],
        )
    )
    blocks: list[Block] = []
    for entry in rows(file.data.get("files")):
        statistics = entry.get("statistics") if isinstance(entry.get("statistics"), dict) else {}
        groups = [(str(entry.get("name", "?")), statistics.get("all"))]
        by_source = statistics.get("by_dataset")
        if isinstance(by_source, dict):
            groups += [
                (f"{entry.get('name', '?')}: {k or '(none)'}", v) for k, v in by_source.items()
            ]
        for name, figures in groups:
            if not isinstance(figures, dict):
                continue
            shares = (
                figures.get("label_shares") if isinstance(figures.get("label_shares"), dict) else {}
            )
            table.add(
                [
                    name,
                    number(figures.get("n_interventions"), "{}"),
                    number(figures.get("mean_intervention_chars"), "{:.1f}"),
                    number(figures.get("mean_schemes"), "{:.2f}"),
                    number(figures.get("n_references"), "{}"),
                    number(figures.get("mean_references"), "{:.2f}"),
                    *(number(shares.get(label), "{:.2%}") for label in LABELS),
                ]
            )
        signature = signature_block(entry)
        if signature is not None:
            blocks.append(signature)
    note = "Per file and per source corpus (the paper's Tables 1 and 2)."
    return "CQs datasets", [Block("What the datasets hold", note, table=table), *blocks]
