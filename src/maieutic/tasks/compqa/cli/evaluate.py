"""``maieutic evaluate compqa``: answer files scored on the 15-criterion rubric."""

from __future__ import annotations

import click
from click.core import ParameterSource

from maieutic.cli.components import component_options
from maieutic.cli.options import (
    component_option,
    deprecated_alias,
    embedding_options,
    is_explicit,
    llm_options,
    out_option,
    seed_option,
    stack,
    strict_option_for,
)
from maieutic.cli.outputs import refuse_overwriting_inputs
from maieutic.cli.printing import console_for, echo_warnings, fail_on_call_failures
from maieutic.core.task import get_task
from maieutic.report.tables import print_results
from maieutic.run.evaluation import evaluate
from maieutic.tasks.compqa.scored_files import answer_files
from maieutic.tasks.compqa.shots import DEFAULT_SHOTS


class _OldShotsFile(str):
    """A file given to ``--shots``: its old meaning, now ``--shots-from``."""


class ShotCount(click.IntRange):
    """How many examples; a value that is not a number is the old ``--shots FILE``,
    kept working (with a warning) until scripts move to ``--shots-from``."""

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip().lstrip("+-").isdigit():
            return _OldShotsFile(value)
        return super().convert(value, param, ctx)


def _old_shots_file(ctx: click.Context, options: dict) -> None:
    """Move a file given as ``--shots FILE`` to ``--shots-from``, with a warning."""
    value = options["n_shots"]
    if not isinstance(value, _OldShotsFile):
        return
    if is_explicit(ctx, "shots"):
        raise click.UsageError("--shots takes a number; give the examples file to --shots-from")
    click.echo(
        "warning: --shots FILE is deprecated: use --shots-from FILE (--shots is the "
        "number of examples)",
        err=True,
    )
    options["shots"] = ctx.params["shots"] = str(value)
    options["n_shots"] = ctx.params["n_shots"] = DEFAULT_SHOTS
    ctx.set_parameter_source("shots", ParameterSource.COMMANDLINE)
    ctx.set_parameter_source("n_shots", ParameterSource.DEFAULT)


def _options(func):
    """The options of ``evaluate compqa``."""
    options = [
        component_option(
            "evaluator",
            task="compqa",
            default="rules",
            help="rules: offline text rules for criteria 1–7, 13, 15 (others unscored); "
            "llm: a language model scores all 15; rules+llm: rules where they decide.",
        ),
        click.option(
            "--strategy",
            type=click.Choice(["zero-shot", "few-shot"]),
            default="zero-shot",
            show_default=True,
            help="Judge prompt: the rubric alone, or with human-scored examples.",
        ),
        click.option(
            "--shots-from",
            "shots",
            type=click.Path(dir_okay=False),
            help="Human-scored answers the few-shot examples come from (annotator TSV, the "
            "C1…C15 table, or answer JSON with score_dict; default: two bundled examples). "
            "Evaluated answers are never used.",
        ),
        click.option(
            "--shots",
            "n_shots",
            type=ShotCount(1, 10),
            default=DEFAULT_SHOTS,
            show_default=True,
            help="Examples drawn (with --seed) for few-shot.",
        ),
        deprecated_alias("--n-shots", new="--shots", dest="n_shots", type=click.IntRange(1, 10)),
        seed_option("Seed of calls and examples."),
        click.option(
            "--max-tokens",
            type=click.IntRange(16, 32768),
            default=200,
            show_default=True,
            help="Longest judge reply, in tokens (15 scores fit in about 100).",
        ),
    ]
    return stack(options)(func)


@click.command("compqa")
@click.argument("answers", nargs=-1, required=True, type=click.Path())
@_options
@llm_options
@embedding_options
@out_option
@strict_option_for("an empty answer, one over 12,000 characters, or one that does not look English")
@click.pass_context
def evaluate_compqa(ctx, answers, evaluator, *, out_path, strict, **options):
    """Score comparative ANSWERS (released layout: files or folders of
    NAME_scenario_K.json) on the CompQA rubric; totals are always sums of criteria."""
    _old_shots_file(ctx, options)
    refuse_overwriting_inputs(out_path, [str(p) for p in answer_files(answers)])
    args = component_options(ctx, "evaluator", task="compqa", name=evaluator, options=options)
    run = evaluate(
        "compqa",
        None,
        submissions=list(answers),
        evaluator=evaluator,
        strict=strict,
        out=out_path,
        on_result=lambda result: echo_warnings(result.submission, [f.short for f in result.flags]),
        provenance=ctx.params,
        **args,
    )
    print_results(get_task("compqa"), run.results, console_for(out_path), out=out_path)
    fail_on_call_failures(run.failures, "judge")
