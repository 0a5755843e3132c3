"""The sections of the AURA task's own files: answerability against human ratings
(per question and per system), and the metrics at each threshold of a sweep."""

from __future__ import annotations

from typing import Any

from maieutic.report.html.file_blocks import rows, signature_block, sweep_block
from maieutic.report.html.loader import InputFile
from maieutic.report.html.plots_grid import scatter
from maieutic.report.html.tables import Table, headers, is_number, key_value, number
from maieutic.report.html.templating import Block
from maieutic.tasks.aura.evaluate import METRICS


def meta_eval_section(file: InputFile) -> tuple[str, list[Block]]:
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
        headers(["system", *cols]),
        caption="human: mean human answerability (1–3); answerable: AURA's answerable share.",
    )
    points = []
    for name, row in systems.items():
        row = row if isinstance(row, dict) else {}
        table.add(
            [
                str(name),
                number(row.get("n"), "{}"),
                *(number(row.get(c), "{:.3f}") for c in cols[1:]),
            ]
        )
        if is_number(row.get("human")) and is_number(row.get("score")):
            points.append((str(name), float(row["human"]), float(row["score"])))
    chart = (
        scatter(
            points,
            "human answerability",
            y_label="AURA mean score",
            title="Systems: people vs AURA",
        )
        if points
        else None
    )
    blocks.append(Block("Per system", "", chart, table=table))
    return "AURA answerability vs people", blocks


def sweep_section(file: InputFile) -> tuple[str, list[Block]]:
    """``maieutic aura sweep``: the mean of each metric at each threshold."""
    data = file.data
    series = [(m, m) for m in METRICS] + [("mean", "mean")]
    block = sweep_block(
        rows(data["rows"]), data.get("chosen"), series, title="AURA metrics by threshold"
    )
    block.note = (
        f"Over {data.get('n_sets', '?')} question sets; chosen by rule: {data.get('rule', '?')}."
    )
    return "AURA threshold sweep", [block]
