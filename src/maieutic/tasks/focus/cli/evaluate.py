"""``maieutic evaluate focus``: weakness types and spans against gold data."""

from __future__ import annotations

from pathlib import Path

import click

from maieutic.cli.components import component_options
from maieutic.cli.options import (
    embedding_options,
    out_option,
    skip_unknown_option,
    strict_option_for,
)
from maieutic.cli.outputs import refuse_overwriting_inputs
from maieutic.cli.printing import console_for, echo_warnings
from maieutic.core.task import get_task
from maieutic.report.tables import print_results
from maieutic.run.evaluation import evaluate
from maieutic.tasks.focus.annotators import attach_annotators
from maieutic.tasks.focus.classification import MODES
from maieutic.tasks.focus.evaluate import PAIRINGS
from maieutic.tasks.focus.tables import per_type_table


def annotators_option(func):
    """``--annotators``: the per-annotator files (or their folder)."""
    return click.option(
        "--annotators",
        multiple=True,
        type=click.Path(exists=True),
        help="Per-annotator CSVs (A<n>_<category>_<F|G> columns) or their folder; their "
        "rows join to --gold by order within each category. Repeatable.",
    )(func)


def gold_option(help: str):
    """``--gold FILE``, required: the gold data (``help`` says what this command does
    with it)."""
    return click.option(
        "--gold", "gold_path", required=True, type=click.Path(dir_okay=False), help=help
    )


def load_gold_with_annotators(task, gold_path: str, annotators: tuple[str, ...]):
    """The gold data, with each annotator's labels attached when files are given."""
    gold = task.load_reference(gold_path)
    if annotators:
        gold = attach_annotators(gold, annotators)
    echo_warnings(Path(gold_path).name, [*gold.warnings, *(f.short for f in gold.flags)])
    return gold


@click.command("focus")
@gold_option("Gold data: the released CSV layout or maieutic's JSONL.")
@click.argument("submissions", nargs=-1, required=True, type=click.Path(dir_okay=False))
@annotators_option
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default="category",
    show_default=True,
    help="category: predictions outside the argument's two category types are dropped "
    "(the annotation protocol); open: every predicted type counts. Both are reported.",
)
@click.option(
    "--pairing",
    type=click.Choice(PAIRINGS),
    default="type",
    show_default=True,
    help="type: a predicted span is compared with the gold span of the same type; "
    "positional: slot 1 with slot 1 whatever the types (how the released scores were made).",
)
@click.option(
    "--span-embedding/--no-span-embedding",
    default=True,
    show_default=True,
    help="Also compare spans with the BERTScore-style embedding score (--no-span-embedding: "
    "no model is loaded).",
)
@embedding_options
@out_option
@skip_unknown_option("prediction ids absent from --gold")
@strict_option_for(
    "a span with no type, a type with no span, None of the Above beside another type, or "
    "more than two types"
)
@click.pass_context
def evaluate_focus(ctx, gold_path, submissions, *, annotators, out_path, **options):
    """Evaluate FOCUS predictions (SUBMISSIONS) against --gold.

    Prediction files are in the released CSV layout (Predicted_Type1/2,
    Span_PredictedType1/2 beside the gold columns) or maieutic's JSONL. One submission
    prints a summary and a per-type table; several print a leaderboard.
    """
    task = get_task("focus")
    gold = load_gold_with_annotators(task, gold_path, annotators)
    strict, skip_unknown = options.pop("strict"), options.pop("skip_unknown")
    refuse_overwriting_inputs(out_path, [gold_path, *submissions])
    args = component_options(ctx, "evaluator", task="focus", name="type-span", options=options)
    run = evaluate(
        "focus",
        gold,
        submissions=list(submissions),
        evaluator="type-span",
        strict=strict,
        skip_unknown=skip_unknown,
        out=out_path,
        on_result=lambda result: echo_warnings(result.submission, result.warnings),
        provenance=ctx.params,
        **args,
    )
    per_type = [per_type_table(run.results[0])] if len(run.results) == 1 else []
    print_results(task, run.results, console_for(out_path), out=out_path, extra=per_type)
