"""``maieutic aura sweep``: the mean-shift threshold analysis (the pipeline's
preferences against human votes are in ``preferences.py``)."""

from __future__ import annotations

import dataclasses

import click
from rich.table import Table

from maieutic.cli.components import build
from maieutic.cli.options import out_option
from maieutic.cli.outputs import write_record
from maieutic.cli.printing import console_for
from maieutic.core.task import get_task
from maieutic.registry import entry
from maieutic.tasks.aura.cli.group import aura, aura_options, load_sets, qgeval_option
from maieutic.tasks.aura.data import Document
from maieutic.tasks.aura.evaluate import METRICS
from maieutic.tasks.aura.qgeval import load_qgeval
from maieutic.tasks.aura.records import AuraSweep
from maieutic.tasks.aura.sweep import mean_shift


@aura.command("sweep")
@click.argument("document", required=False, type=click.Path(dir_okay=False))
@click.argument("sets", nargs=-1, type=click.Path(dir_okay=False))
@qgeval_option(
    "Also (or only) every passage of a QGEval-style file, its questions as one set.",
    required=False,
)
@aura_options
@out_option
@click.pass_context
def sweep(ctx, document, sets, *, qgeval_path, evaluator, out_path, **options):
    """Mean of each metric over question sets at each threshold of the evaluator's grid,
    and the threshold where the four balance best (the highest mean of the means)."""
    pairs: list[tuple[Document, list[str]]] = []
    if document:
        doc = get_task("aura").load_reference(document)
        pairs += [(doc, s.questions) for s in load_sets(get_task("aura"), doc, sets, strict=False)]
    if qgeval_path:
        pairs += [
            (
                Document(text=i["passage"], source=str(i.get("id", ""))),
                [q["prediction"] for q in i["questions"]],
            )
            for i in load_qgeval(qgeval_path)
        ]
    if not pairs:
        raise click.UsageError("give a DOCUMENT (with SETS) or --qgeval")
    built = build(ctx, "evaluator", task="aura", name=evaluator, options=options)
    grid = entry("evaluator", task="aura", name=evaluator).threshold.sweep
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
    console = console_for(out_path)
    console.print(table)
    # the evaluator's settings but the threshold, which the sweep varies
    signature = dataclasses.replace(
        built.signature(Document(text="", source="sweep"), report["n_sets"]),
        threshold=None,
        dataset=None,
    )
    console.print(f"signature: {signature}")
    write_record(out_path, AuraSweep, ctx=ctx, signature=signature.as_dict(), **report)
