"""``maieutic aura sweep`` (the mean-shift threshold analysis) and ``maieutic aura
agree`` (pipeline preferences against human votes)."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.table import Table

from maieutic.cli._common import build, console_for
from maieutic.cli._options import out_option
from maieutic.data.files import read_text, write_json
from maieutic.errors import DataError
from maieutic.provenance import provenance
from maieutic.registry import entry
from maieutic.report.tables import fmt
from maieutic.stats import PreferenceItem, UndefinedStatistic, preference_agreement
from maieutic.tasks import get_task
from maieutic.tasks.aura.cli.group import aura, aura_options, load_sets
from maieutic.tasks.aura.data import Document, read_document, read_questions
from maieutic.tasks.aura.evaluate import METRICS
from maieutic.tasks.aura.qgeval import load_qgeval
from maieutic.tasks.aura.records import AuraAgree, AuraSweep
from maieutic.tasks.aura.sweep import mean_shift


@aura.command("sweep")
@click.argument("document", required=False, type=click.Path(dir_okay=False))
@click.argument("sets", nargs=-1, type=click.Path(dir_okay=False))
@click.option(
    "--qgeval",
    "qgeval_path",
    type=click.Path(dir_okay=False),
    help="Also (or only) every passage of a QGEval-style file, its questions as one set.",
)
@aura_options
@out_option
@click.pass_context
def sweep(ctx, document, sets, qgeval_path, evaluator, out_path, **options):
    """Mean of each metric over question sets at each threshold of the evaluator's grid,
    and the threshold where the four balance best (the highest mean of the means)."""
    pairs: list[tuple[Document, list[str]]] = []
    if document:
        doc = get_task("aura").load_reference(document)
        pairs += [(doc, s.questions) for s in load_sets(get_task("aura"), doc, sets, strict=False)]
    if qgeval_path:
        pairs += [
            (
                Document(i["passage"], str(i.get("id", ""))),
                [q["prediction"] for q in i["questions"]],
            )
            for i in load_qgeval(qgeval_path)
        ]
    if not pairs:
        raise click.UsageError("give a DOCUMENT (with SETS) or --qgeval")
    built = build(ctx, "evaluator", "aura", evaluator, options)
    grid = entry("evaluator", "aura", evaluator).threshold.sweep
    report = mean_shift(built, pairs, grid)
    table = Table(
        title=f"aura · mean shift over {report['n_sets']} question sets", title_justify="left"
    )
    for header in ("threshold", *METRICS, "mean"):
        table.add_column(header, justify="right")
    table.caption = f"chosen: {report['chosen']:g} ({report['rule']})"
    for row in report["rows"]:
        mark = " ←" if row["threshold"] == report["chosen"] else ""
        table.add_row(f"{row['threshold']:g}{mark}", *(f"{row[m]:.3f}" for m in (*METRICS, "mean")))
    console_for(out_path).print(table)
    if out_path:
        write_json(out_path, AuraSweep(provenance=provenance(ctx.params), **report).to_json())


def _read_preferences(path: Path) -> list[dict]:
    records = []
    for number, line in enumerate(read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DataError(f"not valid JSON ({exc.msg})", where=where) from None
        for key in ("document", "set1", "set2", "votes"):
            if key not in record:
                raise DataError(f"missing field {key!r}", where=where)
        votes = [str(v).strip().upper().replace("SET", "") for v in record["votes"]]
        if not votes or any(v not in ("1", "2", "A", "B") for v in votes):
            raise DataError("votes must be a non-empty list of 1/2 (or A/B)", where=where)
        record["votes"] = ["A" if v in ("1", "A") else "B" for v in votes]
        record["where"] = where
        records.append(record)
    if not records:
        raise DataError("no preference records", where=str(path))
    return records


@click.command("aura-preferences")
@click.argument("preferences", type=click.Path(dir_okay=False, exists=True))
@aura_options
@out_option
@click.pass_context
def aura_preferences(ctx, preferences, evaluator, out_path, **options):
    """How often the AURA pipeline prefers the question set people preferred.
    PREFERENCES is JSONL, one pair per line: {"pair", "document", "set1", "set2",
    "votes": ["1", "2", …]} (paths relative to the file; one vote per annotator)."""
    base = Path(preferences).parent
    records = _read_preferences(Path(preferences))
    built = build(ctx, "evaluator", "aura", evaluator, options)
    items = []
    for record in records:
        document = read_document(base / record["document"])
        first, second = (read_questions(base / record[k]) for k in ("set1", "set2"))
        (m1, _), (m2, _) = built.score_set(document, first), built.score_set(document, second)
        items.append(PreferenceItem({m: (m1[m], m2[m]) for m in METRICS}, record["votes"]))
    try:
        report = preference_agreement(items)
    except UndefinedStatistic as exc:
        raise DataError(str(exc), where=preferences) from None
    table = Table(
        title=f"aura · agreement with human preferences ({report['n_items']} pairs)",
        title_justify="left",
    )
    table.add_column("")
    table.add_column("agree", justify="right")
    table.add_column("proportion", justify="right")
    for name, row in report["per_metric"].items():
        table.add_row(name, f"{row['agree']}/{row['n']}", f"{row['proportion']:.2f}")
    total = report["aggregate"]
    table.add_row(
        "majority of metrics", f"{total['agree']}/{total['n']}", f"{total['proportion']:.2f}"
    )
    given_agree = fmt(report["p_annotator_agrees_given_agree"], "{:.2f}")
    given_disagree = fmt(report["p_annotator_agrees_given_disagree"], "{:.2f}")
    table.caption = (
        f"P(annotator agrees | pipeline = majority) {given_agree}; "
        f"P(annotator agrees | pipeline ≠ majority) {given_disagree}; "
        f"tied pairs skipped: {report['n_tied_skipped']}"
    )
    console_for(out_path).print(table)
    if out_path:
        write_json(out_path, AuraAgree(provenance=provenance(ctx.params), **report).to_json())
