"""``maieutic meta-eval cqs-compare``: evaluators against each other (and against
people, with --outputs) over the same questions."""

from __future__ import annotations

import math
from pathlib import Path

import click
from rich.table import Table

from maieutic.cli.components import build, refuse_options_none_take, split_evaluator
from maieutic.cli.option_types import EvaluatorName
from maieutic.cli.options import (
    data_option,
    embedding_options,
    llm_options,
    out_option,
    plot_option,
)
from maieutic.cli.outputs import write_record
from maieutic.cli.printing import console_for, echo_warnings, fail_on_call_failures
from maieutic.core.task import get_task
from maieutic.registry import entry
from maieutic.report.tables import fmt
from maieutic.run.inputs import load_submissions
from maieutic.tasks.cqs.cli.options import unscored_option
from maieutic.tasks.cqs.labelled_outputs import load_labelled_outputs
from maieutic.tasks.cqs.meta_eval import compare
from maieutic.tasks.cqs.records import CqsCompare
from maieutic.tasks.io import task_io


def _input_flags(dataset, outputs) -> list:
    return [*dataset.flags, *(outputs.flags if outputs is not None else [])]


def _thresholds(values: tuple[str, ...], evaluators: list[str]) -> dict[str, float]:
    out: dict[str, float] = {}
    for value in values:
        name, sep, number = value.partition("=")
        if not sep or name not in evaluators:
            raise click.UsageError(
                f"--threshold {value!r}: expected EVALUATOR=VALUE with EVALUATOR one of "
                f"{', '.join(evaluators)}"
            )
        try:
            out[name] = float(number)
        except ValueError:
            raise click.UsageError(f"--threshold {value!r}: {number!r} is not a number") from None
        if not math.isfinite(out[name]):
            raise click.UsageError(f"--threshold {value!r}: {number!r} is not a finite number")
    return out


def _print_comparison(console, result: dict) -> None:
    console.print(_kappa_table(result))
    for r in result["rankings"]:
        console.print(
            f"score correlation {r['a']} vs {r['b']} over {len(result['submissions'])} "
            f"submissions: pearson={fmt(r['pearson'], '{:.3f}')} "
            f"spearman={fmt(r['spearman'], '{:.3f}')}",
            highlight=False,
        )


def _plot_comparison(result: dict, plot_path: str) -> None:
    from maieutic.report.plots import heatmap

    heatmap(result["evaluators"], result["kappa"], plot_path, title="Cohen's κ between evaluators")


def _kappa_table(result: dict) -> Table:
    table = Table(title="Cohen's κ between evaluators (NAE kept as a class)", title_justify="left")
    table.add_column("")
    for n in result["evaluators"]:
        table.add_column(n, justify="right")
    table.add_column("signature", overflow="fold")
    for n, row in zip(result["evaluators"], result["kappa"], strict=True):
        table.add_row(n, *(fmt(v, "{:.3f}") for v in row), result["signatures"][n])
    return table


def _build_scorers(ctx, names: list[str], thresholds: dict, *, options: dict) -> dict:
    """Each evaluator built with its own options: its threshold, and a scorer:DIR's
    directory (an option none of them takes is refused)."""
    own = {n: {**options, "threshold": thresholds.get(n)} for n in names}
    registered = {n: split_evaluator(n, own[n]) for n in names}
    refuse_options_none_take(
        ctx, [entry("evaluator", task="cqs", name=r) for r in registered.values()], options
    )
    return {
        n: build(
            ctx, "evaluator", task="cqs", name=registered[n], options=own[n], refuse_unused=False
        )
        for n in names
    }


def _compared_evaluators(evaluators, submissions, outputs_path) -> list[str]:
    """The distinct evaluators to compare: two or more, or one beside people."""
    names = list(dict.fromkeys(evaluators))
    if bool(submissions) == bool(outputs_path):
        raise click.UsageError("give SUBMISSIONS or --outputs (one of the two)")
    if len(names) < (1 if outputs_path else 2):
        raise click.UsageError("give at least two different --evaluator")
    return names


def _compared(task, dataset, submissions, *, outputs_path):
    """The submissions to compare on, people's labels of them with their signature (or
    None), and the inputs' flags."""
    if not outputs_path:
        loaded = load_submissions(task, task_io(task), list(submissions), reference=dataset)
        return loaded, (None, ""), list(dataset.flags)
    outputs = load_labelled_outputs(outputs_path, dataset)
    echo_warnings(Path(outputs_path).name, [f.short for f in outputs.flags])
    systems, people = outputs.as_systems()
    return systems, (people, outputs_signature(outputs)), _input_flags(dataset, outputs)


def outputs_signature(outputs) -> str:
    """How people's labels of system outputs are identified beside the evaluators'."""
    digest = outputs.fingerprint().removeprefix("sha256:")[:12]
    return f"task:cqs-people|outputs:{digest}|n:{len(outputs.outputs)}"


@click.command("cqs-compare")
@data_option("Labelled dataset the submissions are evaluated against.")
@click.option(
    "--evaluator",
    "evaluators",
    multiple=True,
    required=True,
    type=EvaluatorName("cqs"),
    help="Repeat: two or more evaluators (scorer:DIR: a learned scorer).",
)
@click.option(
    "--threshold",
    "thresholds",
    multiple=True,
    help="EVALUATOR=VALUE, e.g. sts=0.65 or chrf=30 (repeatable; default: each evaluator's own).",
)
@click.argument("submissions", nargs=-1, type=click.Path(dir_okay=False))
@click.option(
    "--outputs",
    "outputs_path",
    type=click.Path(dir_okay=False),
    help="Instead of SUBMISSIONS: generated questions labelled by people (the "
    "extended_test.json layout), read as one submission per system (3 questions each); "
    "people join the comparison as one more rater (Figure 3 of the CQs paper).",
)
@embedding_options
@llm_options
@unscored_option
@plot_option("the kappa heatmap")
@out_option
@click.pass_context
def meta_eval_compare(
    ctx,
    data_path,
    evaluators,
    *,
    thresholds,
    submissions,
    outputs_path,
    plot_path,
    out_path,
    **options,
) -> None:
    """Kappa between evaluators over the questions of SUBMISSIONS, and the correlation of
    the system scores they give (Pearson and Spearman over submissions); with --outputs,
    people's labels join as one more rater."""
    names_ = _compared_evaluators(evaluators, submissions, outputs_path)
    per_evaluator = _thresholds(thresholds, names_)
    task = get_task("cqs")
    dataset = task.load_reference(data_path)
    loaded, (people, by), flags = _compared(task, dataset, submissions, outputs_path=outputs_path)
    scorers = _build_scorers(ctx, names_, per_evaluator, options=options)
    result = compare(dataset, loaded, scorers, people=people, people_signature=by)
    _print_comparison(console_for(out_path), result)
    write_record(
        out_path,
        CqsCompare,
        ctx=ctx,
        evaluator_specs={n: s.spec for n, s in scorers.items()},
        flags=[f.to_json() for f in flags],
        **result,
    )
    if plot_path:  # after --out, as in meta-eval cqs
        _plot_comparison(result, plot_path)
    fail_on_call_failures([f for s in scorers.values() for f in s.failures], "judge")
