"""``maieutic evaluate cqs``: critical-question submissions against labelled references."""

from __future__ import annotations

from pathlib import Path

import click

from maieutic.cli.components import component_options, split_evaluator
from maieutic.cli.option_types import number
from maieutic.cli.options import (
    component_option,
    data_option,
    deprecated_alias,
    embedding_options,
    engine_arguments,
    engine_options,
    llm_options,
    out_option,
    skip_unknown_option,
    stack,
    strict_option_for,
)
from maieutic.cli.outputs import refuse_overwriting_inputs
from maieutic.cli.printing import console_for, echo_warnings, fail_on_call_failures
from maieutic.core.task import get_task
from maieutic.data.files import write_json
from maieutic.report.tables import print_results
from maieutic.run.evaluation import evaluate
from maieutic.run.inputs import reference_for
from maieutic.tasks.cqs.cli.options import (
    apply_preset,
    nae_fallback_option,
    preset_option,
    unscored_option,
)
from maieutic.tasks.cqs.evaluate import official_layout


def official_name(evaluator: str, result) -> str:
    """``{evaluator}_{threshold}_{submission}.json`` as the benchmark script names its
    outputs, with path separators taken out of the submission name."""
    name = result.submission.replace("/", "_").replace("\\", "_").lstrip(".")
    threshold = result.signature.threshold
    middle = f"_{threshold:g}" if threshold is not None else ""
    rule = result.signature.extra.get("unscored")
    if rule and rule != "as-nae":  # its labels differ: never over the default's file
        middle += f"_{rule}"
    if result.signature.extra.get("nae_fallback"):  # so do a fallback judge's
        middle += "_nae-fallback"
    return f"{evaluator}{middle}_{name}.json"


def _cqs_options(func):
    """The options of ``evaluate cqs``."""
    options = [
        data_option("Labelled dataset (the benchmark's JSON layout, or JSONL)."),
        click.argument("submissions", nargs=-1, required=True, type=click.Path(dir_okay=False)),
        component_option(
            "evaluator",
            task="cqs",
            default="sts",
            help="sts / chrf: similarity to the references; llm-match: an LLM matches a "
            "reference; llm-label / llm-rubric: an LLM labels directly; scorer:DIR: a learned "
            "scorer (maieutic train cqs) labels without references.",
        ),
        click.option(
            "--threshold",
            type=number(),
            help="Similarity a match must exceed (sts: cosine, default 0.6; chrf: 0–100, "
            "default 30). LLM judges take none.",
        ),
        embedding_options,
        llm_options,
        unscored_option,
        nae_fallback_option,
        preset_option,
        click.option(
            "--extra-references",
            multiple=True,
            type=click.Path(dir_okay=False, exists=True),
            help="A labelled submission whose questions become extra references (a submission's "
            "own questions are left out when it is evaluated). Repeatable.",
        ),
        out_option,
        click.option(
            "--official-dir",
            "official_dir",
            type=click.Path(file_okay=False),
            help="Also write each submission's labelled questions in the benchmark script's "
            "layout, one file per submission, into this directory.",
        ),
        skip_unknown_option("submission ids absent from the references"),
        strict_option_for(
            "an intervention without 3 questions, a repeated or empty question, a repeated id "
            "or an empty question list"
        ),
    ]
    return stack(options)(func)


@click.command("cqs")
@_cqs_options
@engine_options
@deprecated_alias(
    "--official-out", new="--official-dir", dest="official_dir", type=click.Path(file_okay=False)
)
@click.pass_context
def evaluate_cqs(
    ctx, data_path, submissions, *, evaluator, out_path, official_dir, preset, **options
):
    """Evaluate critical-question SUBMISSIONS against the references of --data.

    One submission prints a summary; several print a leaderboard.
    """
    evaluator = apply_preset(ctx, preset, evaluator, options=options)
    task = get_task("cqs")
    # a reference-free judge reads texts without reference questions too
    dataset = reference_for(task, data_path, evaluator=evaluator, options=options)
    echo_warnings(Path(data_path).name, dataset.warnings)
    strict, skip_unknown = options.pop("strict"), options.pop("skip_unknown")
    refuse_overwriting_inputs(out_path, [data_path, *submissions])
    # absolute, so the spec recorded in the results rebuilds from any directory
    options["extra_references"] = [str(Path(p).resolve()) for p in options.pop("extra_references")]
    registered = split_evaluator(evaluator, options)
    engine = engine_arguments(options)
    args = component_options(ctx, "evaluator", task="cqs", name=registered, options=options)

    def keep(result) -> None:
        echo_warnings(result.submission, result.warnings)
        if official_dir:
            path = Path(official_dir) / official_name(registered, result)
            write_json(path, official_layout(result))

    run = evaluate(
        "cqs",
        dataset,
        submissions=list(submissions),
        evaluator=registered,
        strict=strict,
        skip_unknown=skip_unknown,
        out=out_path,
        on_result=keep,
        provenance=ctx.params,
        **engine,
        **args,
    )
    echo_warnings(evaluator, run.evaluator_warnings)
    from maieutic.tasks.cqs.presets import leaderboard_note

    # said once, however many submissions share the setting, before the summary
    for note in dict.fromkeys(filter(None, (leaderboard_note(r.signature) for r in run.results))):
        click.echo(f"note: {note}", err=True)
    for result in run.results:
        if note := fallback_note(result):
            click.echo(f"note: {result.submission}: {note}", err=True)
    print_results(task, run.results, console_for(out_path), out=out_path)
    fail_on_call_failures(run.failures, "judge")


def fallback_note(result) -> str | None:
    """What the NAE fallback did to a result, in one line (None: it did nothing)."""
    fallback = result.summary.get("nae_fallback")
    if not fallback:
        return None
    labels = ", ".join(f"{n} {label}" for label, n in fallback["labels"].items())
    return (
        f"{fallback['n_questions']} question(s) no reference matched were labelled by the "
        f"judge ({labels}); overall by the references alone: "
        f"{fallback['overall_by_references']:.4f}"
    )
