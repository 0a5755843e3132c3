"""``maieutic evaluate``: score system outputs against references."""

from __future__ import annotations

from pathlib import Path

import click

from maieutic._version import __version__
from maieutic.cli._common import echo_warnings, write_json_atomic
from maieutic.cli._evaluators import (
    EVALUATORS,
    build_matcher,
    evaluator_options,
    fail_on_judge_errors,
)
from maieutic.data.cqs import load_cq_dataset, load_submission
from maieutic.errors import DataError
from maieutic.report.tables import print_results
from maieutic.tasks.cqs.evaluate import CQEvaluation, evaluate_submissions
from maieutic.tasks.cqs.references import load_labelled_submission, with_extra_references
from maieutic.tasks.cqs.runs import group_runs, summarize_runs

RESULTS_FORMAT = "maieutic.cqs.results/1"
_THRESHOLD_RANGE = {"sts": (-1.0, 1.0), "chrf": (0.0, 100.0)}


@click.group()
def evaluate() -> None:
    """Evaluate generated questions."""


def results_payload(dataset_path: str, results: list[CQEvaluation]) -> dict:
    """The results file: every finished run, each with its signature."""
    return {
        "format": RESULTS_FORMAT,
        "maieutic_version": __version__,
        "dataset": dataset_path,
        "runs": [r.to_json() for r in results],
        "repeated_runs": {name: summarize_runs(runs) for name, runs in group_runs(results).items()},
    }


def check_threshold(evaluator: str, threshold: float | None) -> None:
    """A usage error for a threshold outside the evaluator's scale."""
    if threshold is not None and evaluator in _THRESHOLD_RANGE:
        low, high = _THRESHOLD_RANGE[evaluator]
        if not low <= threshold <= high:
            raise DataError(f"--threshold {threshold} is outside [{low}, {high}] for {evaluator}")


@evaluate.command("cqs")
@click.option(
    "--data",
    "data_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="Labelled dataset (official JSON layout, or JSONL).",
)
@click.argument("submissions", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--evaluator",
    "--metric",
    "metric",
    type=click.Choice(EVALUATORS),
    default="sts",
    show_default=True,
    help="sts/chrf: similarity to the references; llm-match: an "
    "LLM matches references; llm-label / llm-rubric: an LLM labels directly.",
)
@evaluator_options
@click.option(
    "--extra-references",
    "extra_paths",
    multiple=True,
    type=click.Path(dir_okay=False, exists=True),
    help="A labelled submission whose questions become extra references "
    "(left out when that same submission is evaluated). Repeatable.",
)
@click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False),
    help="Write full results (every question's label, match and similarity) here.",
)
@click.option(
    "--official-out",
    "official_dir",
    type=click.Path(file_okay=False),
    help="Also write each submission's labelled questions in the benchmark "
    "script's layout, one file per submission, into this directory.",
)
@click.option(
    "--skip-unknown",
    is_flag=True,
    help="Warn about and skip submission ids absent from the references (default: it is an error).",
)
def evaluate_cqs(
    data_path: str,
    submissions: tuple[str, ...],
    metric: str,
    threshold: float | None,
    extra_paths: tuple[str, ...],
    out_path: str | None,
    official_dir: str | None,
    skip_unknown: bool,
    **settings,
) -> None:
    """Evaluate critical-question SUBMISSIONS against the references of --data.

    One submission prints a summary table; several print a leaderboard.
    """
    check_threshold(metric, threshold)
    dataset = load_cq_dataset(data_path)
    echo_warnings(Path(data_path).name, dataset.warnings)
    # Read and validate every file before any model work, so a typo fails in a second.
    loaded = [load_submission(path) for path in submissions]
    extras = [load_labelled_submission(p) for p in extra_paths]
    _disambiguate_names(loaded)
    matcher = build_matcher(metric, settings)
    finished: list[CQEvaluation] = []

    def keep(result: CQEvaluation) -> None:
        # Persist after every submission: a later failure loses nothing already scored.
        finished.append(result)
        echo_warnings(result.submission, result.warnings)
        if out_path:
            write_json_atomic(out_path, results_payload(data_path, finished))
        if official_dir:
            write_json_atomic(
                Path(official_dir) / f"{metric}_{result.submission}.json", result.official_layout()
            )

    if not extras:
        evaluate_submissions(
            dataset, loaded, matcher, threshold=threshold, skip_unknown=skip_unknown, on_result=keep
        )
    else:
        for submission in loaded:  # each sees the references without its own questions
            references = with_extra_references(dataset, extras, Path(submission.source))
            evaluate_submissions(
                references,
                [submission],
                matcher,
                threshold=threshold,
                skip_unknown=skip_unknown,
                on_result=keep,
            )
    print_results(finished)
    fail_on_judge_errors(matcher)


def _disambiguate_names(submissions) -> None:
    # Two files called output.json in different folders must not share a row name.
    names = [s.name for s in submissions]
    for s in submissions:
        if names.count(s.name) > 1:
            s.name = str(Path(s.source).with_suffix(""))
