"""``maieutic import``: a run of inspect_ai or lm-eval turned into a maieutic results
file (for ``maieutic compare``, ``report`` and the leaderboard). The frameworks are
imported only when a command runs."""

from __future__ import annotations

import os
from typing import Any

import click

from maieutic.cli.outputs import require_written_file
from maieutic.cli.printing import echo_warnings
from maieutic.data import guard

MAX_NAME = 200
"""The longest ``--name`` taken: a system's name is shown in tables and file names."""

_NAME = click.option(
    "--name",
    help="The system's name in the results (default: the run's model).",
)
_OUT = click.option(
    "--out",
    "out_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="Results file to write (as `maieutic evaluate --out` writes it).",
)
_SUBMISSION = click.option(
    "--out-submission",
    "submission_path",
    type=click.Path(dir_okay=False),
    help="Also write the run's output as `maieutic generate` writes it (with its "
    ".meta.json), to score it with another evaluator.",
)


@click.group("import")
def import_group() -> None:
    """Bring a run of another evaluation framework into maieutic: its replies scored
    as `maieutic evaluate` scores them, written as a results file (docs/integrations.md).

    \b
    Example:
      maieutic import inspect-log logs/run.eval --out results.json
    """


def _check_outputs(out_path: str, submission_path: str | None, *, name: str | None) -> None:
    """Before anything is read: ``--out`` a file, and not one ``--out-submission``
    writes too (the submission or its .meta.json); ``--name`` a line of text."""
    if name is not None:
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            raise click.BadParameter(
                "not valid text (a lone surrogate)", param_hint="--name"
            ) from None
        if not name.strip() or len(name) > MAX_NAME or not name.isprintable():
            raise click.BadParameter(
                f"a system's name is one printable line of 1 to {MAX_NAME} characters",
                param_hint="--name",
            )
    require_written_file(out_path, why="")
    if submission_path:
        written = {os.path.realpath(p) for p in guard.derived_outputs(submission_path)}
        if os.path.realpath(out_path) in written:
            raise click.UsageError(
                f"--out {out_path} is also written by --out-submission {submission_path} "
                "(the output or its .meta.json): one would replace the other"
            )


def _write(run: Any, *, out_path: str, submission_path: str | None) -> None:
    # what the import read besides the file named (lm-eval's results file beside its
    # samples) is an input too: noted while reading, checked here before anything is written
    guard.check_output(out_path, "--out")
    if submission_path:
        guard.check_derived(submission_path, 1, "--out-submission")
    generation = run.generation()
    evaluation = run.evaluate(generation)
    evaluation.save(out_path)
    if submission_path:
        generation.save(submission_path)
    [result] = evaluation.results
    echo_warnings(result.submission, result.warnings)
    shown = "undefined" if result.score is None else f"{result.score:.4f}"
    click.echo(f"{result.submission}: {run.benchmark.spec.metric} {shown} ({result.signature})")
    click.echo(f"wrote {out_path}")


@import_group.command("inspect-log")
@click.argument("log", type=click.Path(dir_okay=False))
@_OUT
@_SUBMISSION
@_NAME
def inspect_log(log: str, *, out_path: str, submission_path: str | None, name: str | None) -> None:
    """Score the replies of an inspect_ai LOG of a maieutic/TASK run (needs
    maieutic[inspect]).

    \b
    Example:
      maieutic import inspect-log logs/run.eval --out results.json
    """
    from maieutic.integrations.importing import from_inspect_log

    _check_outputs(out_path, submission_path, name=name)
    _write(from_inspect_log(log, name=name), out_path=out_path, submission_path=submission_path)


@import_group.command("lm-eval-samples")
@click.argument("samples", type=click.Path(dir_okay=False))
@_OUT
@_SUBMISSION
@_NAME
def lm_eval_samples(
    samples: str, *, out_path: str, submission_path: str | None, name: str | None
) -> None:
    """Score the replies of an lm-eval --log_samples SAMPLES file of a maieutic_TASK run.

    \b
    Example:
      maieutic import lm-eval-samples runs/model/samples_maieutic_cqs.jsonl --out results.json
    """
    from maieutic.integrations.importing import from_lm_eval_samples

    _check_outputs(out_path, submission_path, name=name)
    run = from_lm_eval_samples(samples, name=name)
    _write(run, out_path=out_path, submission_path=submission_path)
