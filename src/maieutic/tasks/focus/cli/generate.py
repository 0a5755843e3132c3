"""``maieutic generate focus``: weakness types, spans and Socratic questions; with
``--runs K``, K generations with seeds S, S+1, …, each written as its own files, scored
together as mean ± sd when the input has gold types (see ``maieutic.tasks.focus.seed_runs``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from maieutic.cli.components import component_options
from maieutic.cli.options import (
    engine_arguments,
    engine_options,
    llm_options,
    sampling_options,
    stack,
)
from maieutic.cli.printing import console_for, echo_warnings
from maieutic.data.files import is_stdout, rewritable
from maieutic.progress import progress
from maieutic.registry import names
from maieutic.run.generation import generate as run_generation
from maieutic.tasks.focus.data import load_arguments
from maieutic.tasks.focus.seed_runs import (
    has_gold_types,
    run_path,
    run_scores,
    runs_signature,
    runs_table,
    summarise,
)
from maieutic.tasks.focus.type_labels import FocusSet

MAX_SHOWN = 20


def _llm_generation_options(func):
    options = [
        click.option(
            "--strategy",
            type=click.Choice(names("strategy", task="focus")),
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
    return sampling_options("focus")(func)


_COMMAND_OPTIONS = [
    click.option(
        "--data",
        "data_path",
        required=True,
        type=click.Path(dir_okay=False),
        help="Arguments to generate for: the released CSV layout or maieutic's JSONL "
        "(labels not needed; a category restricts the types to its two).",
    ),
    click.option(
        "--out",
        "out_path",
        required=True,
        type=click.Path(dir_okay=False),
        help="Predictions to write: OUT.jsonl (native) and OUT.csv (released layout, gold "
        "columns kept from --data) side by side, and OUT.meta.json.",
    ),
    click.option(
        "--generator",
        type=click.Choice(names("generator", task="focus")),
        default="cues",
        show_default=True,
        help="cues: linguistic cues, no model; llm: a language model.",
    ),
    click.option(
        "--ignore-categories",
        "use_categories",
        is_flag=True,
        flag_value=False,
        default=True,
        help="Consider all ten types even where an argument's category is known (open mode).",
    ),
]

_RUNS_OPTION = click.option(
    "--runs",
    type=click.IntRange(1, 100),
    default=1,
    show_default=True,
    help="Independent runs with seeds S, S+1, … (S: --seed), written as OUT-run1 … "
    "OUT-runK; when --data has gold types, micro/macro P/R/F1 are printed as mean ± sd "
    "over the runs (the paper's Table 23).",
)


@click.command("focus")
@stack(_COMMAND_OPTIONS)
@_llm_generation_options
@_RUNS_OPTION
@llm_options
@engine_options
@click.option("--limit", type=click.IntRange(1), help="Only the first N arguments.")
@click.pass_context
def generate_focus(ctx, data_path, out_path, *, generator, runs, limit, **options) -> None:
    """Predict up to two weakness types per argument of --data, the span each targets,
    and the Socratic question built from the type's template."""
    if is_stdout(out_path) or not rewritable(out_path):
        raise click.UsageError("--out must be a file path (three files are written)")
    dataset = load_arguments(data_path)
    echo_warnings(Path(data_path).name, [*dataset.warnings, *(f.short for f in dataset.flags)])
    engine = engine_arguments(options)
    args = component_options(ctx, "generator", task="focus", name=generator, options=options)
    if runs > 1:
        call = {"generator": generator, "limit": limit, "provenance": ctx.params, **engine}
        generate_runs(dataset, out_path, runs, call=call, args=args)
        return
    generated = run_generation(
        "focus",
        dataset,
        generator=generator,
        limit=limit,
        out=out_path,
        progress=progress,
        provenance=ctx.params,
        **engine,
        **args,
    )
    [run] = generated.runs
    jsonl, csv_path = generated.written
    echo_warnings(jsonl.name, run.warnings)
    labelled = sum(bool(o.labels) for o in run.outcomes)
    click.echo(
        f"wrote {jsonl} and {csv_path} ({labelled}/{len(run.outcomes)} with a type)", err=True
    )
    if generated.uses_llm:
        _report_calls(run.calls_now)
    _report_failures([o for o in run.outcomes if o.failed], len(run.outcomes))


def generate_runs(
    dataset: FocusSet, out_path: str, runs: int, *, call: dict[str, Any], args: dict[str, Any]
) -> None:
    """Generate ``runs`` times (``call``: what every run shares; ``args``: the
    generator's options, whose ``seed`` is raised by one per run), then print the
    scores over the runs."""
    name = call["generator"]
    seeds = [args["seed"] + i for i in range(runs)] if args.get("seed") is not None else None
    if seeds is None:
        click.echo(
            f"note: generator {name!r} takes no seed: it is deterministic, so its {runs} "
            "runs are the same and every sd is 0",
            err=True,
        )
    generations, failed = [], []
    for index in range(runs):
        run_args, recorded = dict(args), dict(call["provenance"])
        if seeds:
            run_args["seed"] = recorded["seed"] = seeds[index]
        generated = run_generation(
            "focus",
            dataset,
            out=run_path(out_path, index),
            progress=progress,
            **{**call, "provenance": recorded},
            **run_args,
        )
        [run] = generated.runs
        jsonl, csv_path = generated.written
        echo_warnings(jsonl.name, run.warnings)
        labelled = sum(bool(o.labels) for o in run.outcomes)
        seed = f"seed {seeds[index]}, " if seeds else ""
        click.echo(
            f"wrote {jsonl} and {csv_path} ({seed}{labelled}/{len(run.outcomes)} with a type)",
            err=True,
        )
        if generated.uses_llm:
            _report_calls(run.calls_now)
        failed += [o for o in run.outcomes if o.failed]
        generations.append(generated)
    _report_failures(failed, runs * len(generations[0].runs[0].outcomes))
    _print_scores(generations, seeds, runs)


def _print_scores(generations: list, seeds: list[int] | None, runs: int) -> None:
    gold = generations[0].data
    if not has_gold_types(gold):
        click.echo(
            "note: --data has no gold types: the runs are written, not scored "
            "(maieutic evaluate focus --gold GOLD scores them)",
            err=True,
        )
        return
    per_run = [run_scores(g.data, predictions=g.parts[0].output) for g in generations]
    console = console_for(None)
    console.print(runs_table(summarise(per_run), runs))
    signature = runs_signature(generations[0].signature, seeds, runs)
    console.print(f"signature: {signature}", highlight=False)


def _report_calls(stats) -> None:
    click.echo(stats.summary(), err=True)


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
