"""``maieutic evaluate compqa``: answer files scored on the 15-criterion rubric."""

from __future__ import annotations

import click

from maieutic.cli._common import (
    build,
    console_for,
    echo_warnings,
    fail_on_call_failures,
    load_submissions,
)
from maieutic.cli._options import (
    embedding_options,
    llm_options,
    out_option,
    strict_option,
)
from maieutic.cli.evaluate_cmd import evaluate, refuse_overwriting_inputs
from maieutic.evaluate.results_file import ResultsFile
from maieutic.provenance import provenance
from maieutic.registry import names
from maieutic.report.tables import print_results
from maieutic.tasks import get_task
from maieutic.tasks.compqa.scored_files import answer_files


def _options(func):
    """The options of ``evaluate compqa``."""
    options = [
        click.option(
            "--evaluator",
            type=click.Choice(names("evaluator", "compqa")),
            default="rules",
            show_default=True,
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
            "--shots",
            type=click.Path(dir_okay=False),
            help="Human-scored answers for few-shot examples (annotator TSV, the C1…C15 "
            "table, or answer JSON with score_dict; default: two bundled examples). "
            "Evaluated answers are never used.",
        ),
        click.option(
            "--n-shots",
            type=click.IntRange(1, 10),
            default=2,
            show_default=True,
            help="Examples drawn (with --seed) for few-shot.",
        ),
        click.option(
            "--seed", type=int, default=0, show_default=True, help="Seed of calls and examples."
        ),
        click.option(
            "--max-tokens",
            type=click.IntRange(16, 32768),
            default=200,
            show_default=True,
            help="Longest judge reply, in tokens (15 scores fit in about 100).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@evaluate.command("compqa")
@click.argument("answers", nargs=-1, required=True, type=click.Path())
@_options
@llm_options
@embedding_options
@out_option
@strict_option
@click.pass_context
def evaluate_compqa(ctx, answers, evaluator, out_path, strict, **options):
    """Score comparative ANSWERS (released layout: files or folders of
    NAME_scenario_K.json) on the CompQA rubric; totals are always sums of criteria."""
    task = get_task("compqa")
    files = [str(p) for p in answer_files(answers)]
    loaded = load_submissions(task, files, strict=strict)
    for answer_file in loaded:
        echo_warnings(answer_file.name, [f.short for f in answer_file.flags])
    refuse_overwriting_inputs(out_path, files)
    scorer = build(ctx, "evaluator", "compqa", evaluator, options)
    results = ResultsFile(out_path, "compqa", provenance(ctx.params))
    try:
        scorer.evaluate(loaded, on_result=results.add)
    finally:
        results.close()
    print_results(task, results.results, console_for(out_path))
    fail_on_call_failures(scorer.failures, "judge")
