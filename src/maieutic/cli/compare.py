"""``maieutic compare``: is one system really better than another? Paired tests over
the task's units between results of ``maieutic evaluate``."""

from __future__ import annotations

from typing import Any

import click

from maieutic.cli.option_types import number
from maieutic.cli.options import out_option, seed_option, stack
from maieutic.stats.bootstrap import DEFAULT_SEED
from maieutic.stats.paired import CONFIDENCE, N_RESAMPLES, N_TRIALS

OPTIONS = [
    click.option(
        "--baseline",
        help="The system the others are tested against, by its name in the results "
        "(default: the first result given).",
    ),
    click.option(
        "--pairwise",
        is_flag=True,
        help="Test every pair of systems, not only each against the baseline.",
    ),
    click.option(
        "--trials",
        type=click.IntRange(100, 1_000_000),
        default=N_TRIALS,
        show_default=True,
        help="Approximate-randomization shuffles (every shuffle when there are fewer).",
    ),
    click.option(
        "--resamples",
        type=click.IntRange(100, 100_000),
        default=N_RESAMPLES,
        show_default=True,
        help="Paired-bootstrap resamples.",
    ),
    click.option(
        "--confidence",
        type=number(0.5, max=0.999),
        default=CONFIDENCE,
        show_default=True,
        help="Coverage of the intervals; a p-value below 1 − CONFIDENCE is significant.",
    ),
    seed_option("Seed of both tests.", default=DEFAULT_SEED),
    out_option,
]
"""The options of ``maieutic compare`` (their defaults: ``maieutic.stats.paired``)."""


@click.command("compare")
@click.argument("results", nargs=-1, required=True, type=click.Path(dir_okay=False))
@stack(OPTIONS)
@click.pass_context
def compare(
    ctx: click.Context, results: tuple[str, ...], out_path: str | None, **options: Any
) -> None:
    """Test whether systems' scores really differ: each result in the RESULTS files
    (of maieutic evaluate, one task, one signature, the same items) against the
    baseline, or every pair. Each line gives the difference, its paired-bootstrap
    interval over the task's units (interventions, arguments, questions, documents)
    and the approximate-randomization p-value, seeded.

    \b
    Example:
      maieutic compare baseline.json system-a.json system-b.json
    """
    from maieutic.cli.outputs import refuse_overwriting_inputs
    from maieutic.cli.printing import console_for
    from maieutic.data.writing import write_json
    from maieutic.provenance import provenance
    from maieutic.records import ComparisonRecord
    from maieutic.report.comparison import print_comparison
    from maieutic.run.comparison import compare as run_compare

    refuse_overwriting_inputs(out_path, list(results))
    comparison = run_compare(
        results,
        baseline=options["baseline"],
        pairwise=options["pairwise"],
        n_resamples=options["resamples"],
        n_trials=options["trials"],
        confidence=options["confidence"],
        seed=options["seed"],
    )
    print_comparison(comparison, console_for(out_path))
    if out_path is not None:
        record = ComparisonRecord(provenance=provenance(ctx.params), **comparison.to_json())
        write_json(out_path, record.to_json())
