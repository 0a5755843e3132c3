"""``maieutic generate focus``: weakness types, spans and Socratic questions."""

from __future__ import annotations

from pathlib import Path

import click

from maieutic.cli._common import build, echo_warnings, meta_path, progress_bar
from maieutic.cli._options import llm_options, sampling_options
from maieutic.data.files import is_stdout, rewritable, write_json
from maieutic.provenance import provenance
from maieutic.registry import names
from maieutic.tasks.focus.data import load_arguments
from maieutic.tasks.focus.generate import to_prediction_set
from maieutic.tasks.focus.write import write_focus

MAX_SHOWN = 20


def output_paths(out: str) -> tuple[Path, Path]:
    """The JSONL and CSV files written for ``--out`` (one named, the other beside it)."""
    path = Path(out)
    if path.suffix.lower() == ".csv":
        return path.with_suffix(".jsonl"), path
    return path, path.with_suffix(".csv")


def _llm_generation_options(func):
    options = [
        click.option(
            "--strategy",
            type=click.Choice(names("strategy", "focus")),
            default="zero-shot",
            show_default=True,
            help="Prompting strategy of the llm generator (cot: conclusion, premises, "
            "assumptions and flaw before the answer).",
        ),
        click.option(
            "--shots",
            type=click.IntRange(1, 10),
            default=5,
            show_default=True,
            help="Examples shown by the few-shot strategy.",
        ),
        click.option(
            "--shots-from",
            type=click.Path(dir_okay=False, exists=True),
            help="Labelled FOCUS file the few-shot examples come from (default: the "
            "examples bundled with maieutic; never an argument being generated for).",
        ),
        click.option(
            "--rewrite/--no-rewrite",
            default=False,
            show_default=True,
            help="Ask the model to make each filled template fluent (kept only when the "
            "span survives verbatim).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return sampling_options(0.3, 256)(func)


@click.command("focus")
@click.option(
    "--data",
    "data_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="Arguments to generate for: the released CSV layout or maieutic's JSONL "
    "(labels not needed; a category restricts the types to its two).",
)
@click.option(
    "--out",
    "out_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="Predictions to write: OUT.jsonl (native) and OUT.csv (released layout, gold "
    "columns kept from --data) side by side, and OUT.meta.json.",
)
@click.option(
    "--generator",
    type=click.Choice(names("generator", "focus")),
    default="cues",
    show_default=True,
    help="cues: linguistic cues, no model; llm: a language model.",
)
@click.option(
    "--ignore-categories",
    "use_categories",
    is_flag=True,
    flag_value=False,
    default=True,
    help="Consider all ten types even where an argument's category is known (open mode).",
)
@_llm_generation_options
@llm_options
@click.option("--limit", type=click.IntRange(1), help="Only the first N arguments.")
@click.pass_context
def generate_focus(ctx, data_path, out_path, generator, limit, **options) -> None:
    """Predict up to two weakness types per argument of --data, the span each targets,
    and the Socratic question built from the type's template."""
    if is_stdout(out_path) or not rewritable(out_path):
        raise click.UsageError("--out must be a file path (three files are written)")
    dataset = load_arguments(data_path)
    echo_warnings(Path(data_path).name, [*dataset.warnings, *(f.short for f in dataset.flags)])
    if limit:
        dataset.items = dict(list(dataset.items.items())[:limit])
    component = build(ctx, "generator", "focus", generator, options)
    with progress_bar("generating") as update:
        run = component.generate(dataset, on_progress=update)
    jsonl, csv_path = output_paths(out_path)
    predictions = to_prediction_set(run.outcomes, dataset, jsonl.stem)
    write_focus(predictions, jsonl, predictions=True)
    write_focus(predictions, csv_path, predictions=True, gold=dataset)
    write_json(meta_path(jsonl), _record(ctx, component, dataset, run))
    echo_warnings(jsonl.name, run.warnings)
    failed = [o for o in run.outcomes if o.failed]
    labelled = sum(bool(o.labels) for o in run.outcomes)
    click.echo(
        f"wrote {jsonl} and {csv_path} ({labelled}/{len(run.outcomes)} with a type)", err=True
    )
    if component.uses_llm:
        stats = run.stats
        click.echo(
            f"model calls: {stats.model_calls} made, {stats.cache_hits} served from the cache, "
            f"{stats.failed} failed",
            err=True,
        )
    _report_failures(failed, len(run.outcomes))


def _record(ctx, component, dataset, run) -> dict:
    signature = component.signature(dataset)
    return {
        "format": "maieutic.generation/2",
        "task": "focus",
        "signature": signature.as_dict(),
        "signature_string": str(signature),
        "generator": component.spec.to_json(),
        "provenance": provenance(ctx.params),
        "n_arguments": len(run.outcomes),
        "model_calls": {"made": run.stats.model_calls, "cache_hits": run.stats.cache_hits},
        "warnings": run.warnings,
        "failed": {o.id: o.failure for o in run.outcomes if o.failed},
        "outcomes": {o.id: o.to_json() for o in run.outcomes},
    }


def _report_failures(failed: list, total: int) -> None:
    if not failed:
        return
    reasons = {o.failure for o in failed}
    if len(failed) == total and len(reasons) == 1:
        click.echo(f"all {total} arguments failed: {reasons.pop()}", err=True)
        raise SystemExit(1)
    click.echo(f"{len(failed)} argument(s) failed and were written with no type:", err=True)
    for outcome in failed[:MAX_SHOWN]:
        click.echo(f"  {outcome.id}: {outcome.failure}", err=True)
    raise SystemExit(1)
