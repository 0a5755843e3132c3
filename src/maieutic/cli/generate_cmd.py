"""``maieutic generate``: write a submission of generated questions."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from maieutic._version import __version__
from maieutic.cli._common import write_json_atomic
from maieutic.data.cqs import load_cq_dataset
from maieutic.embed.store import EmbeddingStore
from maieutic.errors import DataError
from maieutic.llm.backends.factory import BACKEND_KINDS, make_backend
from maieutic.llm.client import LLMClient, RetryPolicy
from maieutic.llm.store import CallStore
from maieutic.llm.types import GenerationParams
from maieutic.tasks.cqs.generate import (
    ItemOutcome,
    generate_with_llm,
    generate_with_templates,
    to_submission,
)
from maieutic.tasks.cqs.prompts import STRATEGIES, PromptBuilder
from maieutic.tasks.cqs.schemes import SchemeLibrary
from maieutic.tasks.cqs.selection import SELECTORS
from maieutic.tasks.cqs.template_generator import TemplateGenerator

MAX_FAILURES_SHOWN = 20


@click.group()
def generate() -> None:
    """Generate questions."""


def run_paths(out: Path, runs: int) -> list[Path]:
    """One output file per run: ``out`` itself, or ``stem-run1.json``… for several runs."""
    if runs == 1:
        return [out]
    return [out.with_name(f"{out.stem}-run{k + 1}{out.suffix}") for k in range(runs)]


def meta_path(path: Path) -> Path:
    """The sidecar that records how a submission was made."""
    return path.with_name(f"{path.stem}.meta.json")


@generate.command("cqs")
@click.option(
    "--data",
    "data_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="Interventions to generate for (dataset layout; labels not needed).",
)
@click.option(
    "--out",
    "out_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="Submission file to write (with --runs K: OUT-run1.json … OUT-runK.json).",
)
@click.option(
    "--generator", type=click.Choice(["template", "llm"]), default="template", show_default=True
)
@click.option(
    "--strategy",
    "strategies",
    multiple=True,
    type=click.Choice(STRATEGIES),
    help="Prompting strategy; repeat to pool candidates from several (default: detailed).",
)
@click.option(
    "--backend",
    type=click.Choice(BACKEND_KINDS),
    default="auto",
    show_default=True,
    help="auto: --base-url given -> OpenAI-compatible server, else embedded SmolLM2.",
)
@click.option("--base-url", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1.")
@click.option("--model", help="Model name at the endpoint (or a GGUF path / HF name).")
@click.option("--concurrency", type=click.IntRange(1, 512), default=4, show_default=True)
@click.option(
    "--candidates",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Samples per strategy; candidates are pooled and reduced to 3.",
)
@click.option(
    "--selector",
    type=click.Choice(sorted(SELECTORS)),
    default="first",
    show_default=True,
    help="How candidates are reduced to 3.",
)
@click.option(
    "--runs",
    type=click.IntRange(1, 100),
    default=1,
    show_default=True,
    help="Independent runs with different seeds.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--temperature", type=click.FloatRange(0, 2), default=0.7, show_default=True)
@click.option("--top-p", type=click.FloatRange(0, 1), default=1.0, show_default=True)
@click.option("--max-tokens", type=click.IntRange(1, 32768), default=256, show_default=True)
@click.option(
    "--timeout",
    type=click.FloatRange(0.1),
    default=120.0,
    show_default=True,
    help="Seconds per model call attempt.",
)
@click.option("--retries", type=click.IntRange(0, 20), default=4, show_default=True)
@click.option(
    "--shots",
    type=click.IntRange(1, 10),
    default=1,
    show_default=True,
    help="Examples in the fewshot strategy.",
)
@click.option(
    "--schemes",
    "schemes_path",
    type=click.Path(dir_okay=False, exists=True),
    help="Scheme templates (the benchmark's walton_schemes.jsonl); default: built in.",
)
@click.option(
    "--scheme-mapping",
    type=click.Path(dir_okay=False, exists=True),
    help="CSV mapping dataset scheme labels to --schemes names.",
)
@click.option("--limit", type=click.IntRange(1), help="Only the first N interventions.")
def generate_cqs(
    data_path: str,
    out_path: str,
    generator: str,
    strategies: tuple[str, ...],
    backend: str,
    base_url: str | None,
    model: str | None,
    concurrency: int,
    candidates: int,
    selector: str,
    runs: int,
    seed: int,
    temperature: float,
    top_p: float,
    max_tokens: int,
    timeout: float,
    retries: int,
    shots: int,
    schemes_path: str | None,
    scheme_mapping: str | None,
    limit: int | None,
) -> None:
    """Generate three critical questions per intervention of --data."""
    dataset = load_cq_dataset(data_path, require_labels=False)
    if limit:
        dataset.interventions = dict(list(dataset.interventions.items())[:limit])
    library = (
        SchemeLibrary.from_walton(schemes_path, scheme_mapping)
        if schemes_path
        else SchemeLibrary.builtin()
    )
    select = SELECTORS[selector](store=EmbeddingStore() if selector == "dedup" else None)
    strategies = strategies or ("detailed",)
    if "fewshot" in strategies and not any(
        q.label for item in dataset.interventions.values() for q in item.cqs
    ):
        raise DataError("the fewshot strategy needs labelled reference questions in --data")
    params = GenerationParams(temperature, top_p, max_tokens, seed)
    settings = {
        "generator": generator,
        "selector": selector,
        "seed": seed,
        "runs": runs,
        "data": data_path,
        "dataset": dataset.fingerprint(),
        "version": __version__,
    }
    client = None
    if generator == "llm":
        llm_backend = make_backend(backend, model=model, base_url=base_url)
        client = LLMClient(
            llm_backend,
            CallStore(),
            concurrency=concurrency,
            timeout_s=timeout,
            retry=RetryPolicy(retries=retries),
        )
        settings.update(
            strategies=list(strategies),
            backend=llm_backend.kind,
            model=llm_backend.model_identity,
            candidates=candidates,
            params=params.__dict__,
            shots=shots,
        )
    else:
        settings.update(schemes=library.source)
    builders = [
        PromptBuilder(s, dataset=dataset, library=library, shots=shots, seed=seed)
        for s in strategies
    ]
    failures: list[tuple[int, ItemOutcome]] = []
    for run_index, path in enumerate(run_paths(Path(out_path), runs)):
        if client is None:
            outcomes = generate_with_templates(
                dataset, TemplateGenerator(library), select, run_index
            )
        else:
            outcomes = _with_progress(
                dataset, client, builders, select, params, candidates, run_index, runs
            )
        write_json_atomic(path, to_submission(outcomes))
        failed = [o for o in outcomes if o.failed]
        write_json_atomic(
            meta_path(path),
            {
                "format": "maieutic.cqs.generation/1",
                "run": run_index + 1,
                "settings": settings,
                "n_interventions": len(outcomes),
                "failed": {o.intervention_id: o.reason for o in failed},
                "candidates": {o.intervention_id: o.candidates for o in outcomes},
            },
        )
        failures.extend((run_index, o) for o in failed)
        click.echo(
            f"wrote {path} ({len(outcomes) - len(failed)}/{len(outcomes)} interventions "
            "with 3 questions)",
            err=True,
        )
    if client is not None:
        click.echo(
            f"model calls made: {client.backend_calls} (the rest came from the cache)", err=True
        )
    if failures and len(failures) == len(dataset.interventions) * runs:
        reasons = {o.reason for _, o in failures}
        if len(reasons) == 1:
            # one cause for everything (typically an unreachable server): say it once
            click.echo(f"all {len(failures)} interventions failed: {reasons.pop()}", err=True)
            raise SystemExit(1)
    if failures:
        click.echo(
            f"{len(failures)} intervention(s) failed and were written as 'Missing CQs':", err=True
        )
        for run_index, outcome in failures[:MAX_FAILURES_SHOWN]:
            run = f"run {run_index + 1}: " if runs > 1 else ""
            click.echo(f"  {run}{outcome.intervention_id}: {outcome.reason}", err=True)
        if len(failures) > MAX_FAILURES_SHOWN:
            click.echo(
                f"  … and {len(failures) - MAX_FAILURES_SHOWN} more (see the .meta.json)", err=True
            )
        raise SystemExit(1)


def _with_progress(dataset, client, builders, select, params, candidates, run_index, runs):
    console = Console(stderr=True)
    label = f"run {run_index + 1}/{runs}" if runs > 1 else "generating"
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        disable=not console.is_terminal,
    ) as progress:
        task = progress.add_task(label, total=None)

        def update(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return generate_with_llm(
            dataset,
            client,
            builders,
            select,
            params=params,
            samples=candidates,
            run_index=run_index,
            on_progress=update,
        )
