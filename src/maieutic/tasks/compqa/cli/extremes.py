"""``maieutic compqa extremes``: how people score the answers a judge scored highest and
lowest, and how the judge scores people's highest and lowest (the paper's Figure 8)."""

from __future__ import annotations

import click
from rich.table import Table

from maieutic.cli.option_types import number
from maieutic.cli.options import out_option
from maieutic.cli.printing import console_for, echo_warnings
from maieutic.data.files import write_json
from maieutic.errors import DataError
from maieutic.provenance import provenance


def _options(func):
    """The options of ``compqa extremes``."""
    from maieutic.tasks.compqa.cli.group import judged_option

    human_file = click.Path(dir_okay=False, exists=True)
    options = [
        judged_option,
        click.option(
            "--humans",
            "table",
            type=human_file,
            help="People's averaged scores (human_evaluation_367.tsv: C1…C15).",
        ),
        click.option(
            "--hum1",
            type=human_file,
            help="First annotator's file (with --hum2): averaged where both scored.",
        ),
        click.option(
            "--hum2", type=human_file, help="Second annotator's file (row-aligned with --hum1)."
        ),
        click.option(
            "--high",
            type=number(0, 19),
            default=18.0,
            show_default=True,
            help="A total at least this is a high score (the paper states none).",
        ),
        click.option(
            "--low",
            type=number(0, 19),
            default=14.0,
            show_default=True,
            help="A total at most this is a low score (the paper's 'bad': 3–14).",
        ),
        out_option,
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _panel_table(panel) -> Table:
    sign = "≥" if panel.end == "high" else "≤"
    title = (
        f"{panel.shown}'s totals of the answers {panel.picked_by} scored {panel.end} "
        f"({sign} {panel.bound:g})"
    )
    table = Table(title=title, title_justify="left")
    for name in ("generator", "n", "mean ± sd", "min", "median", "max", "distribution"):
        table.add_column(name, justify="left" if name in ("generator", "distribution") else "right")
    for row in (r.to_json() for r in panel.rows):
        sd = "" if row["sd"] is None else f" ± {row['sd']:.2f}"
        counts = " ".join(f"{k}:{n}" for k, n in row["counts"].items())
        table.add_row(
            row["generator"],
            str(row["n"]),
            f"{row['mean']:.2f}{sd}",
            f"{row['min']:g}",
            f"{row['median']:g}",
            f"{row['max']:g}",
            counts,
        )
    return table


def _humans(table, hum1, hum2):
    """People's scores of ``--humans`` or ``--hum1``/``--hum2``, and their rows left out."""
    from maieutic.tasks.compqa.judge_agreement import humans_from_annotators, humans_from_table

    if bool(table) == bool(hum1 or hum2) or bool(hum1) != bool(hum2):
        raise click.UsageError("give either --humans TABLE or both --hum1 and --hum2")
    humans, left_out = humans_from_table(table) if table else humans_from_annotators(hum1, hum2)
    echo_warnings("compqa extremes", [n for h in humans for n in h.notes])
    return humans, left_out


@click.command("extremes")
@_options
@click.pass_context
def extremes(ctx, judged, table, hum1, hum2, high, low, out_path) -> None:
    """How people score the answers a judge scored high and low, and how the judge
    scores people's high and low, by generator: counts of every total."""
    from maieutic.tasks.compqa.cli.group import answers_of, judged_files, scorers_of
    from maieutic.tasks.compqa.extremes import panels
    from maieutic.tasks.compqa.judge_agreement import match
    from maieutic.tasks.compqa.records import CompqaExtremes
    from maieutic.tasks.compqa.scored_files import LEFT_OUT
    from maieutic.tasks.compqa.signatures import agreement_signature, extremes_signature

    if low >= high:  # the low and high answers would overlap
        raise click.UsageError(f"--low ({low:g}) must be below --high ({high:g})")
    humans, left_out = _humans(table, hum1, hum2)
    files = judged_files(judged, humans=False)
    answers = answers_of(files)
    report = match(humans, answers)
    if not report.pairs:
        raise DataError("no answer is scored by both the judge and people", where=judged[0])
    human_files = [table] if table else [hum1, hum2]
    base = agreement_signature(
        "table" if table else "annotators", human_files, answers, scorers_of(files), 0
    )
    signature = extremes_signature(base, high, low, len(report.pairs))
    found = panels(report.pairs, high, low)
    console = console_for(out_path)
    for panel in found:
        console.print(_panel_table(panel))
    counts = {**report.counts(), LEFT_OUT: left_out}
    console.print("; ".join(f"{k}: {v}" for k, v in counts.items()), highlight=False)
    console.print(f"signature: {signature}", highlight=False)
    if out_path:
        record = CompqaExtremes(
            provenance=provenance(ctx.params),
            signature=signature.as_dict(),
            signature_string=str(signature),
            counts=counts,
            panels=[_panel_json(p) for p in found],
        )
        write_json(out_path, record.to_json())


def _panel_json(panel) -> dict:
    return {
        "picked_by": panel.picked_by,
        "end": panel.end,
        "shown": panel.shown,
        "bound": panel.bound,
        "rows": [r.to_json() for r in panel.rows],
    }
