"""``maieutic train cqs``: a usefulness scorer (or a template selector) learned from
the labelled critical questions."""

from __future__ import annotations

import click

from maieutic.cli._options import scheme_file_options, stack
from maieutic.cli.train import scorer_options, train_scorer


@click.command("cqs")
@stack(
    [
        click.option(
            "--data",
            "data_path",
            required=True,
            type=click.Path(dir_okay=False),
            help="Labelled critical questions (the benchmark's layout).",
        ),
        click.option(
            "--examples",
            type=click.Choice(["references", "templates"]),
            default="references",
            show_default=True,
            help="Learn P(Useful | intervention, question) from the labelled reference "
            "questions (a usefulness judge), or from the template generator's candidates "
            "labelled by the reference each matches (a selector for generate cqs "
            "--generator template).",
        ),
        *scheme_file_options("whose candidates join the built-in ones (--examples templates)"),
    ]
)
@scorer_options
def train_cqs(data_path, examples, schemes, scheme_mapping, **options) -> None:
    """Learn a scorer of critical questions, report its grouped cross-validation
    figures (no text on both sides of a fold), then fit on all the data and save it."""
    if (schemes or scheme_mapping) and examples != "templates":
        raise click.UsageError("--schemes and --scheme-mapping go with --examples templates")
    train_scorer(
        "cqs", data_path, options, kind=examples, schemes=schemes, scheme_mapping=scheme_mapping
    )
