"""``maieutic demo``: the main job on the embedded defaults, with no network."""

from __future__ import annotations

import click

from maieutic.cli.evaluate_cmd import evaluate_cqs
from maieutic.samples import sample_path


@click.command()
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the full results here.",
)
@click.pass_context
def demo(ctx: click.Context, out_path: str | None) -> None:
    """Evaluate the bundled sample submission against the bundled sample dataset.

    Uses the embedded embedding model (all-MiniLM-L6-v2), offline.
    """
    ctx.invoke(
        evaluate_cqs,
        data_path=str(sample_path("cqs/sample_dataset.json")),
        submissions=(str(sample_path("cqs/sample_submission.json")),),
        metric="sts",
        threshold=None,
        model="all-MiniLM-L6-v2",
        backend="torch",
        batch_size=64,
        no_cache=False,
        out_path=out_path,
        official_dir=None,
        skip_unknown=False,
    )
