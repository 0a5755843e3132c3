"""``maieutic report``: one self-contained HTML file for any results files."""

from __future__ import annotations

import click


@click.command("report")
@click.argument("results", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--out", "out_path", required=True, type=click.Path(dir_okay=False), help="HTML file."
)
def report(results: tuple[str, ...], out_path: str) -> None:
    """Write a self-contained HTML report of RESULTS files (being built)."""
    raise click.UsageError("maieutic report is not built yet")
