"""``maieutic generate cqs``: three critical questions per intervention, written as a
submission with a ``.meta.json`` record beside it."""

from __future__ import annotations

import click

from maieutic.cli.components import component_options
from maieutic.cli.option_types import number
from maieutic.cli.options import (
    component_option,
    data_option,
    engine_arguments,
    engine_options,
    is_explicit,
    llm_options,
    sampling_options,
    scheme_file_options,
    stack,
    written_file_option,
)
from maieutic.cli.outputs import require_written_file
from maieutic.cli.printing import echo_warnings
from maieutic.progress import progress
from maieutic.registry import names
from maieutic.run.generation import generate

MAX_FAILURES_SHOWN = 20


_COMPONENT_OPTIONS = [
    component_option(
        "generator",
        task="cqs",
        default="claims",
        help="claims: the text's own claims challenged in the framings that fit them, "
        "no model; template: argumentation-scheme templates, no model; llm: a language "
        "model alone; model-first: the model's usable questions first, the claims "
        "generator's in the slots it leaves empty.",
    ),
    click.option(
        "--order",
        type=click.Choice(["auto", "model-first", "offline"]),
        default="auto",
        show_default=True,
        help="model-first: whose questions are shown. auto: the model's first, except for "
        "a model measured to write worse ones than the offline rules (the embedded "
        "SmolLM2 among them: docs/models.md), which is not asked (offline).",
    ),
    click.option(
        "--strategy",
        "strategies",
        multiple=True,
        type=click.Choice(names("strategy", task="cqs")),
        help="Prompting strategy of the llm generator; repeat to pool candidates "
        "(default: detailed).",
    ),
    component_option(
        "selector",
        task="cqs",
        default="first",
        help="How candidates are reduced to 3 (dedup: avoid near-duplicates; overlap: "
        "prefer questions about the text's own words; usefulness or scorer:DIR: most "
        "useful by a learned scorer, no two near-duplicates; llm-judge: the model labels "
        "its own candidates by the benchmark's guidelines; random: a seeded draw).",
    ),
    click.option(
        "--fill",
        type=click.Choice(["auto", "first", "every"]),
        default="auto",
        show_default=True,
        help="Template slots (template generator): first: the most likely phrase of "
        "each slot; every: each slot in every plausible way, so a selector can choose; "
        "auto: every with a scorer:DIR selector, else first.",
    ),
    click.option(
        "--fill-from",
        type=click.Choice(["claims"]),
        help="llm: when the model gives fewer than 3 usable questions for a text, add "
        "questions of the offline claims generator up to 3 (the note and the .meta.json "
        "say which). Default: keep what the model gave, with a note.",
    ),
    click.option(
        "--candidates",
        type=click.IntRange(1, 64),
        default=1,
        show_default=True,
        help="Samples per strategy (llm); candidates are pooled and reduced to 3.",
    ),
    click.option(
        "--runs",
        type=click.IntRange(1, 100),
        default=1,
        show_default=True,
        help="Independent runs (seeds S, S+1000, …), written as OUT-run1.json …",
    ),
]
"""Which generator, strategies and selector, and how many candidates and runs."""

_SAMPLING_OPTIONS = [
    sampling_options("cqs"),
    click.option(
        "--top-p",
        type=number(0, max=1),
        default=1.0,
        show_default=True,
        help="Nucleus sampling mass (llm).",
    ),
    click.option(
        "--shots",
        type=click.IntRange(1, 10),
        default=1,
        show_default=True,
        help="Examples shown by the fewshot strategy.",
    ),
    click.option(
        "--shots-from",
        type=click.Path(dir_okay=False, exists=True),
        help="Labelled dataset the fewshot examples come from (default: --data, with "
        "a warning, never an intervention's own questions).",
    ),
    *scheme_file_options("instead of the built-in ones"),
]
"""How the llm generator samples, its few-shot examples, and the scheme templates."""

_generation_options = stack([*_COMPONENT_OPTIONS, *_SAMPLING_OPTIONS])


@click.command("cqs")
@data_option("Interventions to generate for (dataset layout; labels not needed).")
@written_file_option("Submission file to write (with --runs K: OUT-run1.json … OUT-runK.json).")
@_generation_options
@llm_options
@engine_options
@click.option("--limit", type=click.IntRange(1), help="Only the first N interventions.")
@click.pass_context
def generate_cqs(
    ctx: click.Context,
    data_path: str,
    *,
    out_path: str,
    generator: str,
    runs: int,
    limit: int | None,
    **options,
) -> None:
    """Generate three critical questions per intervention of --data."""
    _check_usage(ctx, out_path, options)
    _check_model_named(ctx, generator)
    options["strategies"] = list(options["strategies"]) or ["detailed"]
    engine = engine_arguments(options)
    args = component_options(ctx, "generator", task="cqs", name=generator, options=options)
    generated = generate(
        "cqs",
        data_path,
        generator=generator,
        runs=runs,
        limit=limit,
        out=out_path,
        progress=progress,
        provenance=ctx.params,
        **engine,
        **args,
    )
    for run_index, (run, path) in enumerate(zip(generated.runs, generated.written, strict=True)):
        echo_warnings(path.name, run.warnings if run_index == 0 else [])
        full = sum(len(o.questions or []) >= 3 for o in run.outcomes)
        short = sum(0 < len(o.questions or []) < 3 for o in run.outcomes)
        fewer = f"; {short} with fewer, see below" if short else ""
        if run.notes and not short:
            fewer = "; notes below"
        click.echo(f"wrote {path} ({full}/{len(run.outcomes)} with 3 questions{fewer})", err=True)
        _report_notes(run.notes if run_index == 0 else [])
    if generated.uses_llm:
        click.echo(generated.calls_now.summary(), err=True)
    _report_failures(generated.failed, len(generated.data.interventions) * runs, runs=runs)


def _check_usage(ctx, out_path: str, options: dict) -> None:
    require_written_file(
        out_path, why=": generation writes the submission and its .meta.json record beside it"
    )
    if "fewshot" not in options["strategies"]:
        for name, flag in (("shots", "--shots"), ("shots_from", "--shots-from")):
            if is_explicit(ctx, name):
                raise click.UsageError(f"{flag} applies to --strategy fewshot only")


def _check_model_named(ctx, generator: str) -> None:
    """A model named for a generator that uses none: say which generators take one."""
    named = [f for n, f in (("llm", "--llm"), ("base_url", "--base-url")) if is_explicit(ctx, n)]
    if named and generator in ("claims", "template"):
        verb = "name" if len(named) > 1 else "names"
        raise click.UsageError(
            f"{' and '.join(named)} {verb} a model, which the {generator} generator does not "
            "use: add --generator model-first (the model's questions first, the claims "
            "generator filling the slots left) or --generator llm (the model alone)"
        )


def _report_notes(notes: list[str]) -> None:
    """One line per text that got fewer questions (not a failure: nothing padded)."""
    for note in notes[:MAX_FAILURES_SHOWN]:
        click.echo(f"  note: {note}", err=True)
    if len(notes) > MAX_FAILURES_SHOWN:
        click.echo(f"  … and {len(notes) - MAX_FAILURES_SHOWN} more (see the .meta.json)", err=True)


def _report_failures(failures: list, total: int, *, runs: int) -> None:
    if not failures:
        return
    reasons = {o.reason for _, o in failures}
    if len(failures) == total and len(reasons) == 1:
        # one cause for everything (typically an unreachable server): say it once
        click.echo(f"all {len(failures)} interventions failed: {reasons.pop()}", err=True)
        raise SystemExit(1)
    click.echo(
        f"{len(failures)} intervention(s) failed and were written as 'Missing CQs':", err=True
    )
    for run_index, outcome in failures[:MAX_FAILURES_SHOWN]:
        run = f"run {run_index + 1}: " if runs > 1 else ""
        click.echo(f"  {run}{outcome.intervention_id}: {outcome.reason}", err=True)
    if len(failures) > MAX_FAILURES_SHOWN:
        rest = len(failures) - MAX_FAILURES_SHOWN
        click.echo(f"  … and {rest} more (see the .meta.json)", err=True)
    raise SystemExit(1)
