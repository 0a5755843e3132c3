"""``maieutic meta-eval compqa-humans``: how well two annotators agree on the rubric."""

from __future__ import annotations

import click
from rich.table import Table

from maieutic.cli.options import out_option
from maieutic.cli.outputs import write_record
from maieutic.cli.printing import console_for, echo_warnings
from maieutic.errors import DataError
from maieutic.report.tables import fmt
from maieutic.tasks.compqa.human_agreement import agreement_table, load_pairs, pairs_signature
from maieutic.tasks.compqa.records import CompqaHumanAgreement


@click.command("compqa-humans")
@click.argument("first", type=click.Path(dir_okay=False))
@click.argument("second", type=click.Path(dir_okay=False))
@out_option
@click.pass_context
def compqa_humans(ctx, first: str, *, second: str, out_path: str | None) -> None:
    """How well two annotators agree on CompQA scores (per criterion, pooled, and the total
    computed as the sum of the criteria)."""
    pairs = load_pairs(first, second=second)
    if not pairs:
        raise DataError("no answer was scored by both annotators", where=second)
    # scores above their criterion's maximum are kept (the released files hold a few)
    # and flagged here, as meta-eval compqa counts them
    echo_warnings("compqa-humans", [note for pair in pairs for note in pair.notes])
    rows = agreement_table(pairs)
    signature = pairs_signature(first, second=second, pairs=pairs)
    table = Table(
        title=f"CompQA human agreement ({len(pairs)} answers scored by both)", title_justify="left"
    )
    for name in ("criterion", "n", "α interval", "α ordinal", "Spearman ρ"):
        table.add_column(name, justify="right")
    for r in rows:
        cells = [fmt(r[k], "{:.3f}") for k in ("alpha_interval", "alpha_ordinal", "spearman")]
        table.add_row(r["column"], str(r["n"]), *cells)
    console = console_for(out_path)
    console.print(table)
    console.print(f"signature: {signature}", highlight=False)
    write_record(
        out_path,
        CompqaHumanAgreement,
        ctx=ctx,
        with_signature=signature,
        n_pairs=len(pairs),
        rows=rows,
    )
