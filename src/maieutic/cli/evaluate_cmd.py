"""``maieutic evaluate``: score system outputs against references."""

from __future__ import annotations

from pathlib import Path

import click

from maieutic._version import __version__
from maieutic.cli._common import echo_warnings, write_json_atomic
from maieutic.data.cqs import load_cq_dataset, load_submission
from maieutic.embed.encoder import BACKENDS, DEFAULT_MODEL, Encoder
from maieutic.embed.store import EmbeddingStore
from maieutic.errors import DataError
from maieutic.report.tables import print_results
from maieutic.tasks.cqs.evaluate import CQEvaluation, evaluate_submissions
from maieutic.tasks.cqs.matchers import ChrfMatcher, EmbeddingMatcher, Matcher
from maieutic.tasks.cqs.runs import group_runs, summarize_runs

RESULTS_FORMAT = "maieutic.cqs.results/1"
_THRESHOLD_RANGE = {"sts": (-1.0, 1.0), "chrf": (0.0, 100.0)}


@click.group()
def evaluate() -> None:
    """Evaluate generated questions."""


def build_matcher(metric: str, model: str, backend: str, batch_size: int, cache: bool) -> Matcher:
    """The matcher for ``--metric``, with the embedding cache unless disabled."""
    if metric == "chrf":
        return ChrfMatcher()
    encoder = Encoder(model, backend=backend, batch_size=batch_size)
    return EmbeddingMatcher(encoder, EmbeddingStore() if cache else None)


def results_payload(dataset_path: str, results: list[CQEvaluation]) -> dict:
    """The results file: every finished run, each with its signature."""
    return {
        "format": RESULTS_FORMAT,
        "maieutic_version": __version__,
        "dataset": dataset_path,
        "runs": [r.to_json() for r in results],
        "repeated_runs": {name: summarize_runs(runs) for name, runs in group_runs(results).items()},
    }


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
    "--metric",
    type=click.Choice(["sts", "chrf"]),
    default="sts",
    show_default=True,
    help="Similarity used to match each question to a reference.",
)
@click.option(
    "--threshold",
    type=float,
    default=None,
    help="Similarity a match must exceed (default: 0.6 for sts, 50 for chrf).",
)
@click.option(
    "--model",
    default=DEFAULT_MODEL,
    show_default=True,
    help="Sentence-transformers model name or local directory (sts only). "
    "The leaderboard uses stsb-mpnet-base-v2.",
)
@click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    default="torch",
    show_default=True,
    help="Embedding backend; onnx runs the locally exported model on onnxruntime.",
)
@click.option("--batch-size", type=click.IntRange(1, 4096), default=64, show_default=True)
@click.option("--no-cache", is_flag=True, help="Do not read or write the embedding cache.")
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
    model: str,
    backend: str,
    batch_size: int,
    no_cache: bool,
    out_path: str | None,
    official_dir: str | None,
    skip_unknown: bool,
) -> None:
    """Evaluate critical-question SUBMISSIONS against the references of --data.

    One submission prints a summary table; several print a leaderboard.
    """
    if threshold is not None:
        low, high = _THRESHOLD_RANGE[metric]
        if not low <= threshold <= high:
            raise DataError(f"--threshold {threshold} is outside [{low}, {high}] for {metric}")
    dataset = load_cq_dataset(data_path)
    echo_warnings(Path(data_path).name, dataset.warnings)
    # Read and validate every file before any model work, so a typo fails in a second.
    loaded = [load_submission(path) for path in submissions]
    _disambiguate_names(loaded)
    matcher = build_matcher(metric, model, backend, batch_size, cache=not no_cache)
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

    evaluate_submissions(
        dataset, loaded, matcher, threshold=threshold, skip_unknown=skip_unknown, on_result=keep
    )
    print_results(finished)


def _disambiguate_names(submissions) -> None:
    # Two files called output.json in different folders must not share a row name.
    names = [s.name for s in submissions]
    for s in submissions:
        if names.count(s.name) > 1:
            s.name = str(Path(s.source).with_suffix(""))
