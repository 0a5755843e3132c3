"""``maieutic generate aura``: questions about a document, written as a question set."""

from __future__ import annotations

import click

from maieutic.cli.components import component_options
from maieutic.cli.options import llm_options, sampling_options, stack, written_file_option
from maieutic.cli.outputs import require_written_file
from maieutic.progress import progress
from maieutic.run.generation import generate
from maieutic.tasks.aura.generation import GRANULARITIES, STRATEGIES


def _options(func):
    """The options of ``generate aura``."""
    options = [
        click.option(
            "--document",
            "document_path",
            required=True,
            type=click.Path(dir_okay=False),
            help="Markdown, text, PDF (with a text layer) or the passage JSON.",
        ),
        written_file_option("Question set to write (a JSON list), with OUT.meta.json beside it."),
        click.option(
            "--strategy",
            type=click.Choice(STRATEGIES),
            default="zero-shot",
            show_default=True,
            help="zero-shot: ask for questions; answer-first: key facts first, then a "
            "question for each (the paper's chain of thought).",
        ),
        click.option(
            "--granularity",
            type=click.Choice(GRANULARITIES),
            default="paragraph",
            show_default=True,
            help="Questions per paragraph, per page, or for the whole document.",
        ),
    ]
    return sampling_options("aura")(stack(options)(func))


@click.command("aura")
@_options
@llm_options
@click.pass_context
def generate_aura(ctx, document_path, out_path, **options) -> None:
    """Write questions about --document with a language model (the embedded SmolLM2 by
    default); score them with ``maieutic evaluate aura DOCUMENT OUT``."""
    require_written_file(out_path, why=" (a .meta.json is written beside it)")
    args = component_options(ctx, "generator", task="aura", name="llm", options=options)
    generated = generate(
        "aura",
        document_path,
        generator="llm",
        out=out_path,
        progress=progress,
        provenance=ctx.params,
        **args,
    )
    [run] = generated.runs
    click.echo(
        f"wrote {out_path} ({len(generated.output)} questions from {len(run.outcomes)} passages)",
        err=True,
    )
    click.echo(run.calls_now.summary(), err=True)
    if failed := [o for o in run.outcomes if o.failed]:
        click.echo(f"{len(failed)} passage(s) failed; first: {failed[0].failure}", err=True)
        raise SystemExit(1)
