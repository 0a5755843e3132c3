"""``maieutic generate compqa``: comparative answers under the four prompting scenarios,
written in the released answer layout (one ``NAME_scenario_K.json`` per scenario)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

import click

from maieutic.cli.components import component_options
from maieutic.cli.options import (
    deprecated_alias,
    engine_arguments,
    engine_options,
    llm_options,
    sampling_options,
    stack,
    strict_option_for,
)
from maieutic.cli.printing import echo_warnings
from maieutic.progress import progress
from maieutic.run.generation import generate
from maieutic.tasks.compqa.run_io import file_stem
from maieutic.tasks.compqa.scenarios import SCENARIOS


def _options(func):
    """The options of ``generate compqa``."""
    options = [
        click.option(
            "--questions",
            "questions_path",
            required=True,
            type=click.Path(dir_okay=False),
            help="Questions: JSON or JSONL objects (object1, object2, aspect, arguments) "
            "or text lines 'What is better [ASPECT]: A or B?'.",
        ),
        click.option(
            "--out-dir",
            "out_dir",
            type=click.Path(file_okay=False),
            help="Folder for NAME_scenario_K.json (the released layout) and their "
            ".meta.json records.  [required]",
        ),
        click.option(
            "--scenario",
            "scenarios",
            multiple=True,
            type=click.Choice(SCENARIOS),
            help="Prompting scenario(s) (repeatable; default all four): 1 objects only, "
            "2 with arguments, 3 analyst with a set structure, 4 = 3 with arguments.",
        ),
        click.option(
            "--name",
            help="Generator name in the file names (default: the model's name).",
        ),
        click.option(
            "--samples",
            type=click.IntRange(1, 20),
            default=1,
            show_default=True,
            help="Answers per question and scenario, each its own draw (seed + k), side by "
            "side in the file and scored as separate answers (the paper drew 3 from GPT).",
        ),
    ]
    strict = strict_option_for(
        "a question asked twice, or a question without arguments in scenario 2 or 4"
    )
    return stack([strict, sampling_options("compqa"), *options])(func)


@click.command("compqa")
@_options
@deprecated_alias(
    "--out", new="--out-dir", dest="out_dir", required=True, type=click.Path(file_okay=False)
)
@llm_options(defaults_of=("generator", "compqa", "llm"))  # answers run to 768 tokens
@engine_options
@click.pass_context
def generate_compqa(ctx, questions_path, out_dir, *, scenarios, name, strict, **options) -> None:
    """Answer comparative questions with a language model (the embedded SmolLM2 by
    default); score them with ``maieutic evaluate compqa OUT``."""
    scenarios = scenarios or SCENARIOS
    engine = engine_arguments(options)
    args = component_options(
        ctx, "generator", task="compqa", name="llm", options={**options, "scenarios": scenarios}
    )
    generated = generate(
        "compqa",
        questions_path,
        generator="llm",
        strict=strict,
        progress=_answering,
        on_flags=lambda flags: echo_warnings(questions_path, [f.short for f in flags]),
        provenance=ctx.params,
        out=out_dir,
        write_options={"name": name},
        **engine,
        **args,
    )
    _report(generated, Path(out_dir), name or file_stem(generated.signature.model or "llm"))


@contextlib.contextmanager
def _answering(label: str) -> Iterator[Callable[[int, int], None]]:
    """The progress of the one run, labelled as the command always labelled it."""
    with progress("answering") as update:
        yield update


def _report(generated, out: Path, name: str) -> None:
    [run] = generated.runs
    failed = [o for o in run.outcomes if o.failed]
    click.echo(
        f"wrote {len(generated.parts)} file(s) {out}/{name}_scenario_K.json "
        f"({len(run.outcomes) - len(failed)} answers)",
        err=True,
    )
    click.echo(run.calls_now.summary(), err=True)
    if failed:
        click.echo(
            f"{len(failed)} answer(s) failed (left out, listed in the .meta.json); "
            f"first: {failed[0].failure}",
            err=True,
        )
        raise SystemExit(1)
