"""``maieutic cqs stats``: what critical-questions datasets hold (the paper's Tables 1
and 2)."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from maieutic.cli.options import out_option
from maieutic.cli.outputs import write_record
from maieutic.cli.printing import console_for, echo_warnings
from maieutic.core.task import get_task
from maieutic.report.tables import fmt
from maieutic.signature import Signature
from maieutic.tasks.cqs.data import LABELS
from maieutic.tasks.cqs.dataset_stats import dataset_statistics
from maieutic.tasks.cqs.records import CqsStats


@click.group()
def cqs() -> None:
    """Critical-questions tools: stats (what labelled datasets hold, per set and source),
    select (three of each text's stored candidates, by a selector) and replay (stored
    questions served as an OpenAI-compatible model)."""


def _row(table: Table, name: str, figures: dict) -> None:
    shares = figures["label_shares"]
    table.add_row(
        name,
        str(figures["n_interventions"]),
        fmt(figures["mean_intervention_chars"], "{:.1f}"),
        fmt(figures["mean_schemes"], "{:.2f}"),
        str(figures["n_references"]),
        fmt(figures["mean_references"], "{:.2f}"),
        *(fmt(shares[label], "{:.2%}") for label in LABELS),
    )


def _table(files: list[dict]) -> Table:
    table = Table(title="critical-questions datasets", title_justify="left")
    table.add_column("set / source")
    numeric = ("interventions", "mean chars", "schemes", "references", "refs per intervention")
    for name in (*numeric, *LABELS):
        table.add_column(name, justify="right")
    for entry in files:
        _row(table, entry["name"], entry["statistics"]["all"])
        for source, figures in entry["statistics"]["by_dataset"].items():
            _row(table, f"  {source or '(none)'}", figures)
    return table


@cqs.command("stats")
@click.argument("data", nargs=-1, required=True, type=click.Path(dir_okay=False))
@out_option
@click.pass_context
def stats(ctx, data, out_path) -> None:
    """What each labelled DATA file holds, as a whole and per source corpus: the
    interventions, their mean length (characters) and number of schemes, the reference
    questions per intervention and the share of each label ("Benchmarking Critical
    Questions Generation", Tables 1 and 2)."""
    files = []
    for path in data:
        dataset = get_task("cqs").load_reference(path)
        echo_warnings(Path(path).name, [f.short for f in dataset.flags])
        signature = Signature(
            task="cqs-stats", dataset=dataset.fingerprint(), n_references=dataset.n_references
        )
        files.append(
            {
                "name": Path(path).name,
                "source": str(path),
                "signature": signature.as_dict(),
                "signature_string": str(signature),
                "statistics": dataset_statistics(dataset),
            }
        )
    console = console_for(out_path)
    console.print(_table(files))
    for entry in files:
        console.print(f"signature ({entry['name']}): {entry['signature_string']}", highlight=False)
    write_record(out_path, CqsStats, ctx=ctx, files=files)
