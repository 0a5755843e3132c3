"""``maieutic generate aura``: questions about a document, written as a question set."""

from __future__ import annotations

from pathlib import Path

import click

from maieutic.cli._common import build, meta_path, progress_bar
from maieutic.cli._options import llm_options, sampling_options
from maieutic.data.files import is_stdout, rewritable, write_json
from maieutic.provenance import provenance
from maieutic.tasks import get_task
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
        click.option(
            "--out",
            "out_path",
            required=True,
            type=click.Path(dir_okay=False),
            help="Question set to write (a JSON list), with OUT.meta.json beside it.",
        ),
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
    for option in reversed(options):
        func = option(func)
    return sampling_options(0.3, 512)(func)


@click.command("aura")
@_options
@llm_options
@click.pass_context
def generate_aura(ctx, document_path, out_path, **options) -> None:
    """Write questions about --document with a language model (the embedded SmolLM2 by
    default); score them with ``maieutic evaluate aura DOCUMENT OUT``."""
    if is_stdout(out_path) or not rewritable(out_path):
        raise click.UsageError("--out must be a file path (a .meta.json is written beside it)")
    document = get_task("aura").load_reference(document_path)
    component = build(ctx, "generator", "aura", "llm", options)
    with progress_bar("generating") as update:
        run = component.generate(document, on_progress=update)
    questions = list(dict.fromkeys(q for o in run.outcomes for q in o.questions))
    write_json(out_path, questions)
    write_json(meta_path(Path(out_path)), _record(ctx, component, document, run))
    failed = [o for o in run.outcomes if o.failed]
    click.echo(
        f"wrote {out_path} ({len(questions)} questions from {len(run.outcomes)} passages)", err=True
    )
    click.echo(
        f"model calls: {run.stats.model_calls} made, {run.stats.cache_hits} served from the cache, "
        f"{run.stats.failed} failed",
        err=True,
    )
    if failed:
        click.echo(f"{len(failed)} passage(s) failed; first: {failed[0].failure}", err=True)
        raise SystemExit(1)


def _record(ctx, component, document, run) -> dict:
    signature = component.signature(document)
    return {
        "format": "maieutic.generation/2",
        "task": "aura",
        "signature": signature.as_dict(),
        "signature_string": str(signature),
        "generator": component.spec.to_json(),
        "provenance": provenance(ctx.params),
        "model_calls": {"made": run.stats.model_calls, "cache_hits": run.stats.cache_hits},
        "passages": [o.to_json() for o in run.outcomes],
    }
