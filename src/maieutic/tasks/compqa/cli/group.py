"""``maieutic compqa``: tables, agreement with people, training data."""

from __future__ import annotations

import click
from rich.table import Table

from maieutic.cli.option_types import number
from maieutic.cli.options import out_option, stack
from maieutic.cli.outputs import write_record
from maieutic.cli.printing import console_for, echo_warnings
from maieutic.data.files import write_json
from maieutic.errors import DataError
from maieutic.report.tables import fmt
from maieutic.signature import Signature
from maieutic.tasks.compqa.data import Answer
from maieutic.tasks.compqa.human_agreement import agreement_table
from maieutic.tasks.compqa.judge_agreement import (
    humans_from_annotators,
    humans_from_table,
    judge_per_criterion,
    match,
)
from maieutic.tasks.compqa.records import (
    CompqaJudgeAgreement,
    CompqaRulesAgreement,
    CompqaTable,
)
from maieutic.tasks.compqa.scored_files import LEFT_OUT, ScoredFile, left_out_rows, read_judged
from maieutic.tasks.compqa.signatures import agreement_signature, table_signature

judged_option = click.option(
    "--judged",
    multiple=True,
    required=True,
    type=click.Path(exists=True),
    help="Scored answers: released judged files (score_dict), results files of evaluate "
    "compqa, or their folder; compqa table also takes people's score TSVs (the C1…C15 "
    "table, or one or two annotators' files) in their place. Repeatable.",
)


@click.group()
def compqa() -> None:
    """CompQA tools: table (scores by generator and scenario), breakdown (one column per
    judge, by generator, aspect or scenario), extremes (the answers scored highest and
    lowest) and export-sft (training data from well-scored answers); agreement with
    people is maieutic meta-eval compqa and compqa-humans."""


def judged_files(paths: tuple[str, ...], humans: bool = True) -> list[ScoredFile]:
    """The scored answers of ``--judged``, warnings echoed; ``humans=False`` refuses
    people's score TSVs (where a judge's scores are what is compared or exported)."""
    files = read_judged(paths, humans=humans)
    # people's scores above their criterion's maximum are kept (as the released files
    # hold a few) and flagged here
    echo_warnings("compqa", [note for f in files for note in f.notes])
    return files


def answers_of(files: list[ScoredFile]) -> list[Answer]:
    """Every answer of the files, in order."""
    return [a for f in files for a in f.answers]


def scorers_of(files: list[ScoredFile]) -> list[str]:
    """What made the files' scores, for signatures."""
    return [name for f in files for name in f.scored_by]


def criterion_table(rows: list[dict], title: str, *, mean_key: str, caption: str) -> Table:
    """Per criterion: how many scored, both means, alpha and Spearman."""
    out = Table(title=title, title_justify="left")
    other = mean_key.removesuffix("_mean")
    for name in (
        "criterion",
        "n scored",
        "human mean",
        f"{other} mean",
        "α interval",
        "Spearman ρ",
    ):
        out.add_column(name, justify="right")
    for r in rows:
        out.add_row(
            r["criterion"],
            str(r["n"]),
            f"{r['human_mean']:.2f}",
            f"{r[mean_key]:.2f}",
            fmt(r["alpha_interval"], "{:.3f}"),
            fmt(r["spearman"], "{:.3f}"),
        )
    out.caption = caption
    return out


def _rules_report(ctx, report, out_path) -> None:
    from maieutic.embed.encoder import Encoder
    from maieutic.tasks.compqa.judge_agreement import rules_agreement
    from maieutic.tasks.compqa.rules import RuleJudge

    rows = rules_agreement(report, RuleJudge(Encoder()))
    title = f"CompQA: rule-based judge vs people ({len(report.matched)} answers)"
    caption = "criteria not listed are left to a judge (unscored by the rules)"
    console_for(out_path).print(
        criterion_table(rows, title, mean_key="rules_mean", caption=caption)
    )
    write_record(out_path, CompqaRulesAgreement, ctx=ctx, rows=rows)


def _table(rows: dict, *, counts: dict, signature: Signature, n: int) -> Table:
    out = Table(title=f"CompQA: judge vs people ({n} answers)", title_justify="left")
    for name in ("", "n", "α interval", "Spearman ρ", "p"):
        out.add_column(name, justify="right")
    for label, key in (("separately", "all criteria"), ("final score", "total")):
        r = rows[key]
        out.add_row(
            label,
            str(r["n"]),
            fmt(r["alpha_interval"], "{:.3f}"),
            fmt(r["spearman"], "{:.3f}"),
            fmt(r["spearman_p"], "{:.2g}"),
        )
    out.caption = "; ".join(f"{k}: {v}" for k, v in counts.items()) + f"\n{signature}"
    return out


_HUMAN_FILE = click.Path(dir_okay=False, exists=True)

human_score_options = [
    click.option(
        "--humans",
        "table",
        type=_HUMAN_FILE,
        help="People's averaged scores (human_evaluation_367.tsv: C1…C15).",
    ),
    click.option(
        "--hum1",
        type=_HUMAN_FILE,
        help="First annotator's file (with --hum2): averaged where both scored.",
    ),
    click.option(
        "--hum2", type=_HUMAN_FILE, help="Second annotator's file (row-aligned with --hum1)."
    ),
]
"""``--humans TABLE``, or ``--hum1`` and ``--hum2``: people's scores (``read_humans``)."""


def read_humans(*, table: str | None, hum1: str | None, hum2: str | None):
    """People's scores of ``--humans`` or ``--hum1``/``--hum2``, how many of their rows
    were left out, and how the signature names them (the kind and the files)."""
    if bool(table) == bool(hum1 or hum2) or bool(hum1) != bool(hum2):
        raise click.UsageError("give either --humans TABLE or both --hum1 and --hum2")
    humans, left_out = (
        humans_from_table(table) if table else humans_from_annotators(hum1, second=hum2)
    )
    source = ("table", [table]) if table else ("annotators", [hum1, hum2])
    return humans, left_out, source


def _agree_options(func):
    """The options of ``meta-eval compqa``."""
    options = [
        judged_option,
        *human_score_options,
        click.option(
            "--rules",
            is_flag=True,
            help="Score the matched answers with the rule-based judge instead of the "
            "judge's scores, and report its agreement with people per criterion.",
        ),
        click.option(
            "--per-criterion",
            is_flag=True,
            help="Also each criterion's agreement, on the answers where the judge gave it "
            "a valid score (partial score sets count).",
        ),
        out_option,
    ]
    return stack(options)(func)


def _judge_report(ctx, report, signature: Signature, *, left_out: int, per_criterion, out_path):
    criteria = judge_per_criterion(report) if per_criterion else []
    if not report.pairs and not criteria:
        raise DataError("no answer is scored by both the judge and people")
    rows = {r["column"]: r for r in agreement_table(report.pairs)} if report.pairs else {}
    counts = {**report.counts(), LEFT_OUT: left_out}
    console = console_for(out_path)
    if rows:
        console.print(_table(rows, counts=counts, signature=signature, n=len(report.pairs)))
    else:
        console.print(
            "no answer has a complete judge score: "
            + "; ".join(f"{k}: {v}" for k, v in counts.items())
        )
    if criteria:
        title = f"CompQA: judge vs people per criterion ({len(report.matched)} answers)"
        caption = "each criterion on the answers where the judge gave it a valid score"
        console.print(criterion_table(criteria, title, mean_key="judge_mean", caption=caption))
    write_record(
        out_path,
        CompqaJudgeAgreement,
        ctx=ctx,
        with_signature=signature,
        counts=counts,
        rows=list(rows.values()),
        per_criterion=criteria,
    )


@click.command("compqa")
@_agree_options
@click.pass_context
def compqa_judge(ctx, judged, table, *, hum1, hum2, rules, per_criterion, out_path) -> None:
    """How well a judge (or the rules) agrees with people: Krippendorff's alpha
    (interval) and Spearman between the judge and people, all criterion scores
    concatenated ("separately") and on the final score (Table 2)."""
    humans, left_out, source = read_humans(table=table, hum1=hum1, hum2=hum2)
    files = judged_files(judged, humans=False)
    answers = answers_of(files)
    report = match(humans, answers)
    if rules:
        _rules_report(ctx, report, out_path)
        return
    signature = agreement_signature(
        *source, answers, scored_by=scorers_of(files), n_pairs=len(report.pairs)
    )
    try:
        _judge_report(
            ctx,
            report,
            signature,
            left_out=left_out,
            per_criterion=per_criterion,
            out_path=out_path,
        )
    except DataError as exc:
        raise DataError(str(exc), where=", ".join(judged)) from None


@compqa.command("table")
@judged_option
@out_option
def table(judged, out_path) -> None:
    """Mean ± std of the rubric total and of each criterion group per generator and
    scenario (answers with incomplete scores are counted, not summed)."""
    from maieutic.tasks.compqa.human_scored import is_human_file
    from maieutic.tasks.compqa.leaderboard import leaderboard

    people = [p for p in judged if is_human_file(p)]
    if people and len(people) < len(judged):
        # one cell would pool a judge's and people's scores of the same answers
        raise DataError(
            "--judged mixes judge files and people's score files; give one or the other "
            "(compqa breakdown shows them side by side, one column each)",
            where=people[0],
        )
    files = judged_files(judged)
    answers = answers_of(files)
    cells = leaderboard(answers)
    signature = table_signature(answers, scorers_of(files))
    left_out = left_out_rows(files)
    out = Table(title="CompQA: rubric scores by generator and scenario", title_justify="left")
    for name in (
        "generator",
        "scenario",
        "n",
        "incomplete",
        "total",
        "structure",
        "relevance",
        "quality",
    ):
        out.add_column(name, justify="left" if name == "generator" else "right")
    for cell in cells:
        pairs = [cell.total, *(cell.groups.get(g) for g in ("structure", "relevance", "quality"))]
        shown = [f"{p[0]:.2f} ± {p[1]:.2f}" if p else "—" for p in pairs]
        out.add_row(cell.generator, cell.scenario, str(cell.n), str(cell.n_incomplete), *shown)
    out.caption = str(signature)
    if left_out is not None:
        out.caption = f"{LEFT_OUT}: {left_out}\n{out.caption}"
    console_for(out_path).print(out)
    if out_path:
        record = CompqaTable(
            signature=signature.as_dict(),
            signature_string=str(signature),
            cells=[c.to_json() for c in cells],
            human_rows_left_out=left_out,
        )
        write_json(out_path, record.to_json())


@compqa.command("export-sft")
@judged_option
@click.option(
    "--min-score",
    type=number(0, max=19),
    default=18.0,
    show_default=True,
    help="Lowest rubric total exported (the paper's fine-tuning set used 18).",
)
@click.option(
    "--out",
    "out_path",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Chat-format JSONL to write ('-': standard output).",
)
def export_sft(judged, min_score, out_path) -> None:
    """Answers scoring at least --min-score as chat-format JSONL for fine-tuning (the
    question as the user turn, the answer as the assistant turn)."""
    import json

    from maieutic.data.files import write_text
    from maieutic.tasks.compqa.sft import sft_records

    export = sft_records(answers_of(judged_files(judged, humans=False)), min_score)
    write_text(out_path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in export.records))
    click.echo("; ".join(f"{k}: {v}" for k, v in export.counts().items()), err=True)
