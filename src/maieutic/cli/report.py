"""``maieutic report``: one self-contained HTML file for any results files."""

from __future__ import annotations

import click


@click.command("report")
@click.argument("results", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--out",
    "out_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="HTML file to write (written only once every input has been drawn; '-': standard output).",
)
@click.option("--title", help="Title of the page (default: maieutic report).")
def report(results: tuple[str, ...], out_path: str, title: str | None) -> None:
    """Write a self-contained HTML report of RESULTS files: results of maieutic evaluate
    (any task) and meta-eval outputs. Summary tables with signatures, label and score
    distributions, seeded bootstrap intervals, kappa heatmaps and threshold sweeps,
    and every question, with styles, script and figures inline (no network needed).

    \b
    Example:
      maieutic report results.json meta.json --out report.html
    """
    from maieutic.cli.outputs import refuse_overwriting_inputs
    from maieutic.data.files import is_stdout
    from maieutic.report.html import write_report

    refuse_overwriting_inputs(out_path, list(results))
    write_report(list(results), out_path, title)
    if not is_stdout(out_path):
        from maieutic.wording import plural

        click.echo(f"report: {out_path} ({plural(len(results), 'input file')})", err=True)
