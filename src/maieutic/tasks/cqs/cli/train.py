"""``maieutic train cqs``: a usefulness scorer (or a template selector) learned from
the labelled critical questions."""

from __future__ import annotations

import click

from maieutic.cli.options import scheme_file_options, stack
from maieutic.cli.train import scorer_options, train_scorer


@click.command("cqs")
@stack(
    [
        click.option(
            "--data",
            "data_paths",
            required=True,
            multiple=True,
            type=click.Path(dir_okay=False),
            help="Labelled critical questions (the benchmark's layout); repeat to learn "
            "from several files as one (--examples references).",
        ),
        click.option(
            "--outputs",
            "outputs_path",
            type=click.Path(dir_okay=False),
            help="Generated questions people labelled (the benchmark's extended_test.json "
            "layout), on interventions of the --data files: the judge learns from them "
            "too, and its threshold accepts their Useful rate (--examples references).",
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
def train_cqs(data_paths, outputs_path, examples, *, schemes, scheme_mapping, **options) -> None:
    """Learn a scorer of critical questions, report its grouped cross-validation
    figures (no text on both sides of a fold), then fit on all the data and save it."""
    if (schemes or scheme_mapping) and examples != "templates":
        raise click.UsageError("--schemes and --scheme-mapping go with --examples templates")
    if outputs_path and examples != "references":
        raise click.UsageError("--outputs goes with --examples references")
    data = data_paths[0] if len(data_paths) == 1 else list(data_paths)
    train_scorer(
        "cqs",
        data,
        options,
        kind=examples,
        schemes=schemes,
        scheme_mapping=scheme_mapping,
        outputs=outputs_path,
    )
