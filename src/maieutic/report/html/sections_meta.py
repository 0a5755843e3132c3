"""Meta-evaluation files: agreement of an evaluator with people (CQs: kappa, confusion
and the threshold sweep; AURA: rank correlations per question and per system), kappa
between evaluators, and AURA's threshold sweep."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from maieutic.report.html.loader import InputFile
from maieutic.report.html.plots_grid import heatmap, line_chart, scatter
from maieutic.report.html.tables import Header, Table, code, is_number, key_value, number
from maieutic.report.html.templating import Block, render
from maieutic.signature import Signature

SHORT = {"not_able_to_evaluate": "NAE"}
"""Column names shortened in the confusion heatmap (the table keeps the full ones)."""


def signature_block(data: dict[str, Any]) -> Block | None:
    """The file's signature as one line (from its string, or rebuilt from its fields)."""
    text = data.get("signature_string")
    if not isinstance(text, str) and isinstance(data.get("signature"), dict):
        text = str(Signature.from_dict(data["signature"]))
    if not isinstance(text, str):
        return None
    return Block(
        html=Markup('<p class="note">Signature: <code class="sig">{}</code></p>').format(text)
    )


def _rows(value: Any) -> list[dict[str, Any]]:
    return [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def _sweep_block(
    rows: list[dict[str, Any]], chosen: Any, series: list[tuple[str, str]], title: str
) -> Block:
    xs = [float(r["threshold"]) for r in rows]
    lines = [
        (label, [r.get(key) if is_number(r.get(key)) else None for r in rows])
        for key, label in series
    ]
    mark = chosen if is_number(chosen) else None
    chart = line_chart(
        xs, lines, "threshold", "value", title, mark, f"chosen {mark:g}" if mark is not None else ""
    )
    table = Table(
        [
            Header("threshold", numeric=True),
            *(Header(label, numeric=True) for _, label in series),
            Header("chosen"),
        ]
    )
    for r in rows:
        table.add(
            number(r.get("threshold"), "{:g}"),
            *(number(r.get(k), "{:.3f}") for k, _ in series),
            "✓" if mark is not None and r.get("threshold") == mark else "",
        )
    return Block("Threshold sweep", "", chart, table)


def cqs_meta_eval(file: InputFile) -> tuple[str, list[Block]]:
    """``maieutic meta-eval cqs``: leave-one-out agreement with the human labels."""
    data, report = file.data, file.data["report"]
    evaluator = (
        data.get("evaluator", {}).get("name", "?")
        if isinstance(data.get("evaluator"), dict)
        else "?"
    )
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
    blocks = [
        Block(
            "Agreement with the human labels",
            "Each reference question is labelled by "
            "the evaluator against the other references of its intervention.",
            table=key_value(figures),
        )
    ]
    if (signature := signature_block(data)) is not None:
        blocks.append(signature)
    confusion = report.get("confusion")
    if isinstance(confusion, dict) and confusion:
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
            shown,
            matrix,
            "Confusion: human (rows) × evaluator (columns)",
            "{:.0f}",
            vmin=0,
        )
        table = Table(
            [Header("human"), *(Header(p, numeric=True) for p in predicted)], sortable=False
        )
        for h, row in zip(humans, matrix, strict=True):
            table.add(h, *(number(v, "{:.0f}") for v in row))
        blocks.append(Block("Confusion matrix", "", chart, table))
    sweep = data.get("sweep")
    if isinstance(sweep, dict) and _rows(sweep.get("rows")):
        chosen = (
            sweep.get("chosen", {}).get("threshold")
            if isinstance(sweep.get("chosen"), dict)
            else None
        )
        series = [
            ("kappa_nae_kept", "κ, NAE kept"),
            ("kappa_nae_dropped", "κ, NAE dropped"),
            ("nae_rate", "NAE rate"),
        ]
        block = _sweep_block(
            _rows(sweep["rows"]), chosen, series, f"{evaluator}: agreement by threshold"
        )
        block.note = "Chosen: the largest κ (NAE dropped) × (1 − NAE rate)."
        blocks.append(block)
    fields = ("intervention_id", "reference_id", "text", "human", "predicted", "matched_label")
    items = [
        {
            **{k: "" if i.get(k) is None else str(i[k]) for k in fields},
            "similarity": i.get("similarity"),
        }
        for i in _rows(data.get("items"))
    ]
    if items:
        blocks.append(
            Block(
                "References",
                "Every reference with its human and evaluator labels.",
                html=render("meta_items.html.j2", items=items),
            )
        )
    return "CQs evaluator vs people", blocks


def cqs_compare(file: InputFile) -> tuple[str, list[Block]]:
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
    for r in _rows(data.get("rankings")):
        rankings.add(
            str(r.get("a")),
            str(r.get("b")),
            number(r.get("pearson"), "{:.3f}"),
            number(r.get("spearman"), "{:.3f}"),
        )
    if rankings.rows:
        blocks.append(Block("Correlation of system scores", "", table=rankings))
    return "CQs evaluators compared", blocks


def aura_meta_eval(file: InputFile) -> tuple[str, list[Block]]:
    """``maieutic meta-eval aura``: answerability against human ratings (QGEval)."""
    data = file.data
    keys = (
        ("n_questions", "questions"),
        ("n_passages", "passages"),
        ("n_unanswerable", "unanswerable (human mean < 2.5)"),
        ("spearman_question", "Spearman, score vs human rating (per question)"),
        ("roc_auc_unanswerable", "ROC AUC, low score → unanswerable"),
        ("spearman_system_answerable", "Spearman of system rankings (answerable share)"),
        ("spearman_system_score", "Spearman of system rankings (mean score)"),
    )
    figures: list[tuple[str, Any]] = [(name, data.get(key)) for key, name in keys if key in data]
    learned = data.get("learned")
    if isinstance(learned, dict):
        figures += [(f"learned scorer: {k}", v) for k, v in learned.items() if is_number(v)]
    blocks = [Block("Agreement with human answerability", "", table=key_value(figures))]
    if (signature := signature_block(data)) is not None:
        blocks.append(signature)
    systems = data["systems"] if isinstance(data["systems"], dict) else {}
    cols = ("n", "human", "answerable", "score", "coverage")
    table = Table(
        [Header("system"), *(Header(c, numeric=True) for c in cols)],
        caption="human: mean human answerability (1–3); answerable: AURA's answerable share.",
    )
    points = []
    for name, row in systems.items():
        row = row if isinstance(row, dict) else {}
        table.add(
            str(name), number(row.get("n"), "{}"), *(number(row.get(c), "{:.3f}") for c in cols[1:])
        )
        if is_number(row.get("human")) and is_number(row.get("score")):
            points.append((str(name), float(row["human"]), float(row["score"])))
    chart = (
        scatter(points, "human answerability", "AURA mean score", "Systems: people vs AURA")
        if points
        else None
    )
    blocks.append(Block("Per system", "", chart, table))
    return "AURA answerability vs people", blocks


def aura_sweep(file: InputFile) -> tuple[str, list[Block]]:
    """``maieutic aura sweep``: the mean of each metric at each threshold."""
    from maieutic.tasks.aura.evaluate import METRICS

    data = file.data
    series = [(m, m) for m in METRICS] + [("mean", "mean")]
    block = _sweep_block(
        _rows(data["rows"]), data.get("chosen"), series, "AURA metrics by threshold"
    )
    block.note = (
        f"Over {data.get('n_sets', '?')} question sets; chosen by rule: {data.get('rule', '?')}."
    )
    return "AURA threshold sweep", [block]


META_SECTIONS: dict[str, Callable[[InputFile], tuple[str, list[Block]]]] = {
    "cqs-meta-eval": cqs_meta_eval,
    "cqs-compare": cqs_compare,
    "aura-meta-eval": aura_meta_eval,
    "aura-sweep": aura_sweep,
}
"""The builder of each meta-evaluation kind's section."""
