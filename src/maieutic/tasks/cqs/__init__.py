"""Critical questions (CQs-Gen): three questions that challenge an argument, evaluated
against labelled references ("Benchmarking Critical Questions Generation")."""

import functools
from dataclasses import replace

from maieutic.cli import COMMAND_HOOKS
from maieutic.core import Column, Task
from maieutic.registry import register
from maieutic.report.hooks import REPORT_HOOKS, ReportHooks, deferred
from maieutic.tasks.cqs import (  # noqa: F401
    cli,
    evaluators,
    file_kinds,
    generators,
    prompts,
    report_hooks,
    scorer_examples,
    selection,
    web_leaderboard,
)
from maieutic.tasks.cqs.data import load_cq_dataset, load_submission
from maieutic.tasks.cqs.evaluate import RUN_FIGURES, CQEvaluator
from maieutic.tasks.cqs.scoring import MISSING, NAE
from maieutic.tasks.cqs.submission_checks import check_not_references
from maieutic.web.hooks import LEADERBOARDS

SUMMARY = "Critical questions that challenge an argument, scored against people's labels."
"""What the task is, in one line: ``maieutic --help`` reads it from this file without
importing the task."""

__all__ = ["MISSING", "NAE", "CQEvaluator"]


def _summary(key: str, *path: str):
    def read(result):
        value = result.summary.get(key)
        for part in path:
            value = None if value is None else value.get(part)
        return value

    return read


USEFUL = Column(
    "Useful",
    _summary("useful_rate"),
    "{:.1%}",
    description="share of labels that are Useful (a 'Missing CQs' counts as three missing_cqs "
    "labels, as in the benchmark script's results table)",
    empty="no question was scored",
)
DETAILS = [
    Column(
        "NAE",
        _summary("nae_rate"),
        "{:.1%}",
        description="share of labels that are not_able_to_evaluate: no reference similar enough, "
        "so the evaluator cannot judge the question",
        empty="no question was scored",
    ),
    Column(
        "well-formed",
        _summary("well_formed_rate"),
        "{:.1%}",
        description="share of questions passing maieutic's well-formedness check (no quoted "
        "fragment, repeated slot, broken casing…); a flag, never part of the score",
        empty="no question was checked",
    ),
    Column(
        "missing",
        _summary("n_missing_cqs"),
        "{}",
        description="interventions the system answered with 'Missing CQs' (scored 0)",
    ),
    Column(
        "flagged",
        _summary("n_flagged"),
        "{}",
        description="interventions with something the benchmark script scores silently: not 3 "
        "questions, repeated or empty questions, repeated ids",
    ),
    Column(
        "unscored",
        _summary("n_unscored"),
        "{}",
        description="questions an LLM judge could not score: counted as not_able_to_evaluate, i.e. "
        "not Useful (the paper's rule), or left out of the rates with --unscored "
        "drop-and-rescale",
    ),
    Column(
        "n-gram div",
        _summary("diversity", "all", "ngram_diversity"),
        "{:.3f}",
        description="n-gram diversity of all questions: distinct/total n-grams summed over n = "
        "1..4 (0 to 4; higher = more varied)",
        empty="no questions",
    ),
    Column(
        "CR-div",
        _summary("diversity", "all", "cr_div"),
        "{:.3f}",
        description="compression-ratio diversity: compressed/original size (lower = more "
        "repetitive wording; above 1 only for very short texts)",
        empty="no questions",
    ),
]
COLUMNS = [USEFUL, *DETAILS]
"""The leaderboard columns after the submission and its score."""


def _interventions(result) -> str:
    summary = result.summary
    n, scored = summary["n_interventions"], summary["n_scored_interventions"]
    counted = str(n) if scored == n else f"{n} ({scored} scored)"
    return f"{counted}, {summary['n_questions']} questions"


def _useful_differs(result) -> bool:
    useful = result.summary.get("useful_rate")
    return useful is not None and (result.score is None or abs(useful - result.score) > 1e-9)


SUMMARY_ROWS = [
    Column(
        "interventions",
        _interventions,
        "{}",
        description="interventions submitted (those scored, when some are not) and the questions "
        "in them",
    ),
    replace(USEFUL, shown=_useful_differs),
    *DETAILS,
]
"""A one-submission summary. Useful shows only when it differs from the score: with
three labels per intervention it is the score under another name."""


def _unscored(result) -> str:
    return "no intervention was scored: none submitted, or the judge scored no question"


@register("task", task="cqs", name="cqs")
def task() -> Task:
    """Critical questions: three per intervention, scored Useful/3 against references."""
    from maieutic.tasks.cqs.run_io import IO

    return Task(
        io=IO,
        interval_statistic=report_hooks.interval_statistic,
        paired_units=report_hooks.paired_units,
        name="cqs",
        description=task.__doc__ or "",
        load_reference=load_cq_dataset,
        load_texts=functools.partial(load_cq_dataset, require_labels=False),
        load_submission=load_submission,
        score_description="the benchmark's overall score: Useful questions / 3 per "
        "intervention, averaged over the interventions submitted (uncapped, as in the "
        "benchmark script: extra Useful questions can take it above 1)",
        columns=COLUMNS,
        summary_rows=SUMMARY_ROWS,
        unscored_reason=_unscored,
        run_figures=RUN_FIGURES,
        check_submission=check_not_references,
    )


REPORT_HOOKS.add(
    "cqs",
    ReportHooks(
        title="Critical questions (CQs)",
        axis_label="overall score",
        blocks=deferred("maieutic.tasks.cqs.report:cqs_blocks"),
        texts=report_hooks.TEXTS,
        formats=report_hooks.FORMATS,
        input_hint=report_hooks.input_hint,
    ),
)
COMMAND_HOOKS.add("cqs", cli.commands)
LEADERBOARDS.add("cqs", web_leaderboard.LEADERBOARD)
