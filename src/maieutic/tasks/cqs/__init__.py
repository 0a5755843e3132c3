"""Critical questions (CQs-Gen): three questions that challenge an argument, evaluated
against labelled references ("Benchmarking Critical Questions Generation")."""

from maieutic.registry import register
from maieutic.tasks import Column, Task
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

__all__ = ["MISSING", "NAE", "CQEvaluator"]


def _summary(key: str, *path: str):
    def read(result):
        value = result.summary.get(key)
        for part in path:
            value = None if value is None else value.get(part)
        return value

    return read


COLUMNS = [
    Column(
        "Useful",
        _summary("useful_rate"),
        "{:.1%}",
        "share of labels that are Useful (a 'Missing CQs' counts as three "
        "missing_cqs labels, as in the benchmark script's results table)",
    ),
    Column(
        "NAE",
        _summary("nae_rate"),
        "{:.1%}",
        "share of labels that are not_able_to_evaluate: no reference similar "
        "enough, so the evaluator cannot judge the question",
    ),
    Column(
        "well-formed",
        _summary("well_formed_rate"),
        "{:.1%}",
        "share of questions that pass maieutic's well-formedness check (no quoted "
        "fragment, repeated slot, speaker label used as a name, broken casing or "
        "punctuation…); a flag beside the labels, never part of the score",
    ),
    Column(
        "missing",
        _summary("n_missing_cqs"),
        "{}",
        "interventions the system answered with 'Missing CQs' (scored 0)",
    ),
    Column(
        "flagged",
        _summary("n_flagged"),
        "{}",
        "interventions with something the benchmark script scores silently: not "
        "3 questions, repeated or empty questions, repeated ids",
    ),
    Column(
        "unscored",
        _summary("n_unscored"),
        "{}",
        "questions an LLM judge could not score (left out of the rates)",
    ),
    Column(
        "n-gram div",
        _summary("diversity", "all", "ngram_diversity"),
        "{:.3f}",
        "n-gram diversity of all questions: distinct/total n-grams summed over "
        "n = 1..4 (0 to 4; higher = more varied)",
    ),
    Column(
        "CR-div",
        _summary("diversity", "all", "cr_div"),
        "{:.3f}",
        "compression-ratio diversity: compressed/original size (lower = more "
        "repetitive wording; above 1 only for very short texts, which gzip lengthens)",
    ),
]
"""The leaderboard columns after the submission and its score."""


def _report_blocks(entries, finder):
    from maieutic.tasks.cqs.report import cqs_blocks

    return cqs_blocks(entries, finder)


@register("task", "cqs", "cqs")
def task() -> Task:
    """Critical questions: three per intervention, scored Useful/3 against references."""
    from maieutic.tasks.cqs.run_io import IO

    return Task(
        io=IO,
        commands=cli.commands,
        title="Critical questions (CQs)",
        axis_label="overall score",
        report_blocks=_report_blocks,
        report_texts=report_hooks.TEXTS,
        interval_statistic=report_hooks.interval_statistic,
        report_formats=report_hooks.FORMATS,
        report_input_hint=report_hooks.input_hint,
        web_leaderboard=web_leaderboard.LEADERBOARD,
        name="cqs",
        description=task.__doc__ or "",
        load_reference=load_cq_dataset,
        load_submission=load_submission,
        score_description="the benchmark's overall score: Useful questions / 3 per "
        "intervention, averaged over the interventions submitted (1 = three Useful each; "
        "uncapped, as in the benchmark script, so extra Useful questions can exceed 1)",
        columns=COLUMNS,
        run_figures=RUN_FIGURES,
        check_submission=check_not_references,
    )
