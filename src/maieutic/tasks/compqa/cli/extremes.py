"""``maieutic compqa extremes``: how people score the answers a judge scored highest and
lowest, and how the judge scores people's highest and lowest (the paper's Figure 8)."""

from __future__ import annotations

import click
from rich.table import Table

from maieutic.cli.option_types import number
from maieutic.cli.options import out_option, stack
from maieutic.cli.outputs import write_record
from maieutic.cli.printing import console_for, echo_warnings
from maieutic.errors import DataError


def _options(func):
    """The options of ``compqa extremes``."""
    from maieutic.tasks.compqa.cli.group import human_score_options, judged_option

    options = [
        judged_option,
        *human_score_options,
        click.option(
            "--high",
            type=number(0, max=19),
            default=18.0,
            show_default=True,
            help="A total at least this is a high score (the paper states none).",
        ),
        click.option(
            "--low",
            type=number(0, max=19),
            default=14.0,
            show_default=True,
            help="A total at most this is a low score (the paper's 'bad': 3–14).",
        ),
        out_option,
    ]
    return stack(options)(func)


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


@click.command("extremes")
@_options
@click.pass_context
def extremes(ctx, judged, table, *, hum1, hum2, high, low, out_path) -> None:
    """How people score the answers a judge scored high and low, and how the judge
    scores people's high and low, by generator: counts of every total."""
    from maieutic.tasks.compqa.cli.group import answers_of, judged_files, read_humans, scorers_of
    from maieutic.tasks.compqa.extremes import panels
    from maieutic.tasks.compqa.judge_agreement import match
    from maieutic.tasks.compqa.records import CompqaExtremes
    from maieutic.tasks.compqa.scored_files import LEFT_OUT
    from maieutic.tasks.compqa.signatures import agreement_signature, extremes_signature

    if low >= high:  # the low and high answers would overlap
        raise click.UsageError(f"--low ({low:g}) must be below --high ({high:g})")
    humans, left_out, source = read_humans(table=table, hum1=hum1, hum2=hum2)
    echo_warnings("compqa extremes", [n for h in humans for n in h.notes])
    files = judged_files(judged, humans=False)
    answers = answers_of(files)
    report = match(humans, answers)
    if not report.pairs:
        raise DataError("no answer is scored by both the judge and people", where=judged[0])
    base = agreement_signature(*source, answers, scored_by=scorers_of(files), n_pairs=0)
    signature = extremes_signature(base, high, low=low, n_pairs=len(report.pairs))
    found = panels(report.pairs, high, low=low)
    console = console_for(out_path)
    for panel in found:
        console.print(_panel_table(panel))
    counts = {**report.counts(), LEFT_OUT: left_out}
    console.print("; ".join(f"{k}: {v}" for k, v in counts.items()), highlight=False)
    console.print(f"signature: {signature}", highlight=False)
    write_record(
        out_path,
        CompqaExtremes,
        ctx=ctx,
        with_signature=signature,
        counts=counts,
        panels=[_panel_json(p) for p in found],
    )


def _panel_json(panel) -> dict:
    return {
        "picked_by": panel.picked_by,
        "end": panel.end,
        "shown": panel.shown,
        "bound": panel.bound,
        "rows": [r.to_json() for r in panel.rows],
    }
