"""``maieutic generate focus --runs K``: K generations with seeds S, S+1, …, each
written as its own files, scored together as mean ± sd when the input has gold types
(see ``maieutic.tasks.focus.seed_runs``)."""

from __future__ import annotations

from typing import Any

import click

import maieutic
from maieutic.cli._common import console_for, echo_warnings
from maieutic.progress import progress
from maieutic.tasks.focus.cli.generate import _report_calls, _report_failures
from maieutic.tasks.focus.seed_runs import (
    has_gold_types,
    run_path,
    run_scores,
    runs_signature,
    runs_table,
    summarise,
)
from maieutic.tasks.focus.type_labels import FocusSet


def generate_runs(
    dataset: FocusSet, out_path: str, runs: int, call: dict[str, Any], args: dict[str, Any]
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
        generated = maieutic.generate(
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
    per_run = [run_scores(g.data, g.parts[0].output) for g in generations]
    console = console_for(None)
    console.print(runs_table(summarise(per_run), runs))
    signature = runs_signature(generations[0].signature, seeds, runs)
    console.print(f"signature: {signature}", highlight=False)
