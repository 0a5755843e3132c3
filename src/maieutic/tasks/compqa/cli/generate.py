"""``maieutic generate compqa``: comparative answers under the four prompting scenarios,
written in the released answer layout (one ``NAME_scenario_K.json`` per scenario)."""

from __future__ import annotations

import re
from pathlib import Path

import click

from maieutic.cli._common import build, echo_warnings, meta_path, progress_bar
from maieutic.cli._options import deprecated_alias, llm_options, sampling_options, strict_option
from maieutic.data.files import write_json
from maieutic.data.flags import Flag, refuse_flags
from maieutic.llm.backends import describe
from maieutic.provenance import provenance
from maieutic.tasks.compqa.questions import read_questions
from maieutic.tasks.compqa.scenarios import NEEDS_ARGUMENTS, SCENARIOS


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
    ]
    for option in reversed(options):
        func = option(func)
    return strict_option(sampling_options(0.7, 768)(func))


def _flags(question_set, scenarios) -> list[Flag]:
    flags = list(question_set.flags)
    if any(s in NEEDS_ARGUMENTS for s in scenarios):
        flags += [
            Flag(question_set.source, f"[{i}]", "no-arguments", f"{q.text!r} has no arguments")
            for i, q in enumerate(question_set.questions)
            if not q.arguments
        ]
    return flags


def file_stem(model: str) -> str:
    """A generator name for file names, from a model name or path."""
    base = Path(model).stem if model.endswith(".gguf") else model.rsplit("/", 1)[-1]
    return re.sub(r"[^a-z0-9.-]+", "-", base.lower()).strip("-") or "llm"


@click.command("compqa")
@_options
@deprecated_alias("--out", "--out-dir", "out_dir", required=True, type=click.Path(file_okay=False))
@llm_options
@click.pass_context
def generate_compqa(ctx, questions_path, out_dir, scenarios, name, strict, **options) -> None:
    """Answer comparative questions with a language model (the embedded SmolLM2 by
    default); score them with ``maieutic evaluate compqa OUT``."""
    question_set = read_questions(questions_path)
    scenarios = scenarios or SCENARIOS
    flags = _flags(question_set, scenarios)
    echo_warnings(questions_path, [f.short for f in flags])
    if strict:
        refuse_flags(flags)
    component = build(ctx, "generator", "compqa", "llm", {**options, "scenarios": scenarios})
    name = name or file_stem(describe(component.client.backend)[0] or "llm")
    with progress_bar("answering") as update:
        run = component.generate(question_set.questions, on_progress=update)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    signature = component.signature(question_set.questions)
    for scenario in scenarios:
        outcomes = [o for o in run.outcomes if o.scenario == scenario]
        path = out / f"{name}_scenario_{scenario}.json"
        write_json(path, [o.to_json() for o in outcomes if not o.failed])
        write_json(
            meta_path(path),
            {
                "format": "maieutic.generation/2",
                "task": "compqa",
                "scenario": scenario,
                "signature": signature.as_dict(),
                "signature_string": str(signature),
                "generator": component.spec.to_json(),
                "provenance": provenance(ctx.params),
                "flags": [f.to_json() for f in flags],
                "failed": [{"index": o.index, "failure": o.failure} for o in outcomes if o.failed],
            },
        )
    _report(run, out, name, scenarios)


def _report(run, out: Path, name: str, scenarios) -> None:
    failed = [o for o in run.outcomes if o.failed]
    click.echo(
        f"wrote {len(scenarios)} file(s) {out}/{name}_scenario_K.json "
        f"({len(run.outcomes) - len(failed)} answers)",
        err=True,
    )
    click.echo(
        f"model calls: {run.stats.model_calls} made, {run.stats.cache_hits} served from the cache, "
        f"{run.stats.failed} failed",
        err=True,
    )
    if failed:
        click.echo(
            f"{len(failed)} answer(s) failed (left out, listed in the .meta.json); "
            f"first: {failed[0].failure}",
            err=True,
        )
        raise SystemExit(1)
