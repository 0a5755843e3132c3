"""``maieutic demo``: the main job on the embedded defaults, with no network.

It generates critical questions for the bundled sample dataset with the model-free
template generator, then evaluates that submission and the bundled sample submission
against the sample references with the embedded embedding model.
"""

from __future__ import annotations

from pathlib import Path

import click

from maieutic.cli.evaluate_cmd import evaluate_cqs
from maieutic.cli.generate_cmd import generate_cqs
from maieutic.paths import maieutic_home
from maieutic.samples import sample_path


@click.command()
@click.option(
    "--out-dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Where to write the generated submission and results (default: MAIEUTIC_HOME/demo).",
)
@click.pass_context
def demo(ctx: click.Context, out_dir: str | None) -> None:
    """Generate questions for the bundled sample texts, then evaluate them."""
    directory = Path(out_dir) if out_dir else maieutic_home() / "demo"
    dataset = str(sample_path("cqs/sample_dataset.json"))
    generated = directory / "template_generator.json"
    ctx.invoke(generate_cqs, data_path=dataset, out_path=str(generated))
    ctx.invoke(
        evaluate_cqs,
        data_path=dataset,
        submissions=(str(generated), str(sample_path("cqs/sample_submission.json"))),
        out_path=str(directory / "results.json"),
    )
    click.echo(f"submission and full results in {directory}", err=True)
