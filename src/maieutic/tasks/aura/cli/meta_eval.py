"""``maieutic meta-eval aura``: AURA's answerability against human ratings."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from maieutic.cli.components import build
from maieutic.cli.options import out_option
from maieutic.cli.outputs import write_record
from maieutic.cli.printing import console_for
from maieutic.data.files import read_text
from maieutic.report.tables import fmt
from maieutic.tasks.aura.cli.group import aura_options, qgeval_option
from maieutic.tasks.aura.data import Document
from maieutic.tasks.aura.qgeval import load_qgeval, qgeval_agreement
from maieutic.tasks.aura.records import AuraMetaEval


def _systems_table(report: dict) -> Table:
    table = Table(title="aura · per system (QGEval)", title_justify="left")
    for header in (
        "system",
        "n",
        "human answerability",
        "AURA answerable",
        "mean score",
        "coverage",
    ):
        table.add_column(header, justify="left" if header == "system" else "right")
    ranked = sorted(report["systems"].items(), key=lambda kv: -kv[1]["human"])
    for name, row in ranked:
        table.add_row(
            name,
            str(row["n"]),
            f"{row['human']:.3f}",
            f"{row['answerable']:.3f}",
            f"{row['score']:.3f}",
            f"{row['coverage']:.3f}",
        )
    return table


def _agreement_lines(report: dict) -> list[tuple[str, str]]:
    """The agreement figures as (name, value) rows; the learned scorer's beside the
    similarity score's when there is one (its warnings are printed)."""
    lines = [
        (
            "questions (unanswerable: human mean < 2.5)",
            f"{report['n_questions']} ({report['n_unanswerable']})",
        ),
        (
            "Spearman, score vs human rating (per question)",
            fmt(report["spearman_question"], "{:.3f}"),
        ),
        ("ROC AUC, low score → unanswerable", fmt(report["roc_auc_unanswerable"], "{:.3f}")),
        (
            "Spearman of system rankings (answerable share"
            + (", learned decisions)" if report.get("learned") else ")"),
            fmt(report["spearman_system_answerable"], "{:.3f}"),
        ),
        (
            "Spearman of system rankings (mean score)",
            fmt(report["spearman_system_score"], "{:.3f}"),
        ),
    ]
    if learned := report.get("learned"):
        lines += [
            (
                "learned scorer: Spearman, probability vs human rating",
                fmt(learned["spearman_question"], "{:.3f}"),
            ),
            (
                "learned scorer: ROC AUC, low probability → unanswerable",
                fmt(learned["roc_auc_unanswerable"], "{:.3f}"),
            ),
            (
                "learned scorer: Spearman of system rankings (mean probability)",
                fmt(learned["spearman_system_probability"], "{:.3f}"),
            ),
        ]
        for warning in learned["warnings"]:
            click.echo(f"warning: {warning}", err=True)
    return lines


@click.command("aura")
@qgeval_option(
    "QGEval-style instances: passages with questions from several systems and mean "
    "human ratings (1–3) of answerability."
)
@aura_options
@out_option
@click.pass_context
def meta_eval_aura(ctx, qgeval_path, evaluator, *, out_path, **options):
    """How well AURA's answerability agrees with people: per question (Spearman, ROC
    AUC for unanswerable questions) and per system (Spearman of the rankings)."""
    instances = load_qgeval(qgeval_path)
    scorer = build(ctx, "evaluator", task="aura", name=evaluator, options=options)
    report = qgeval_agreement(scorer, instances)
    console = console_for(out_path)
    # the data's signature is the hash of the whole QGEval file
    signature = scorer.signature(
        Document(text=read_text(Path(qgeval_path)), source=qgeval_path), report["n_questions"]
    )
    lines = _agreement_lines(report)
    table = Table(
        title="aura · agreement with human answerability", show_header=False, title_justify="left"
    )
    for name, value in lines:
        table.add_row(name, value)
    table.caption = str(signature)
    console.print(table)
    console.print(_systems_table(report))
    write_record(
        out_path,
        AuraMetaEval,
        ctx=ctx,
        signature=signature.as_dict(),
        evaluator=scorer.spec,
        **report,
    )
