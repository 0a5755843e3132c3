"""Options shared by the subcommands, with one name and one meaning everywhere.

``--embedding-model`` always names a sentence-embedding model and ``--llm`` always
names a language model (at ``--base-url``, a GGUF file, or a Hugging Face name); no
command has a bare ``--model``. Options reach a registered component as factory
arguments of the same name (``--no-cache`` becomes ``cache=False``); an option given
explicitly to a component that does not take it is a usage error, never ignored.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click
from click.core import ParameterSource

from maieutic.embed.encoder import BACKENDS, DEFAULT_MODEL
from maieutic.llm.backends.factory import BACKEND_KINDS
from maieutic.registry import Entry

_INVERTED = {"no_cache": "cache"}


def _stack(options: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    def decorate(func: Any) -> Any:
        return functools.reduce(lambda f, option: option(f), reversed(options), func)

    return decorate


embedding_options = _stack(
    [
        click.option(
            "--embedding-model",
            default=DEFAULT_MODEL,
            show_default=True,
            help="Sentence-embedding model: a sentence-transformers name or local directory "
            "(the leaderboard uses stsb-mpnet-base-v2).",
        ),
        click.option(
            "--embedding-backend",
            type=click.Choice(BACKENDS),
            default="torch",
            show_default=True,
            help="Run the embedding model with torch or onnxruntime (onnx).",
        ),
        click.option(
            "--batch-size",
            type=click.IntRange(1, 4096),
            default=64,
            show_default=True,
            help="Texts per embedding batch.",
        ),
        click.option(
            "--no-cache", is_flag=True, help="Do not read or write the on-disk embedding cache."
        ),
    ]
)

llm_options = _stack(
    [
        click.option(
            "--llm",
            default=None,
            help="Language model: its name at --base-url, a GGUF file, or a Hugging Face "
            "name (default: the embedded SmolLM2-135M-Instruct).",
        ),
        click.option(
            "--llm-backend",
            type=click.Choice(BACKEND_KINDS),
            default="auto",
            show_default=True,
            help="auto: an OpenAI-compatible server when --base-url is given, else the "
            "embedded model in-process.",
        ),
        click.option(
            "--base-url",
            default=None,
            help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8080/v1 (key from "
            "MAIEUTIC_API_KEY or OPENAI_API_KEY).",
        ),
        click.option(
            "--concurrency",
            type=click.IntRange(1, 512),
            default=4,
            show_default=True,
            help="Model calls in flight at once.",
        ),
        click.option(
            "--timeout",
            type=click.FloatRange(0.1),
            default=120.0,
            show_default=True,
            help="Seconds per model call attempt.",
        ),
        click.option(
            "--retries",
            type=click.IntRange(0, 20),
            default=4,
            show_default=True,
            help="Retries of a failed model call (with backoff; Retry-After honoured).",
        ),
    ]
)


def sampling_options(temperature: float, max_tokens: int) -> Callable[[Any], Any]:
    """``--seed``, ``--temperature`` and ``--max-tokens`` with a command's own defaults."""
    return _stack(
        [
            click.option("--seed", type=int, default=0, show_default=True, help="Sampling seed."),
            click.option(
                "--temperature",
                type=click.FloatRange(0, 2),
                default=temperature,
                show_default=True,
                help="Sampling temperature (llm).",
            ),
            click.option(
                "--max-tokens",
                type=click.IntRange(1, 32768),
                default=max_tokens,
                show_default=True,
                help="Longest reply, in tokens (llm).",
            ),
        ]
    )


out_option = click.option(
    "--out",
    "out_path",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Write the full results as JSON here ('-': standard output; tables then go to "
    "standard error).",
)

strict_option = click.option(
    "--strict",
    is_flag=True,
    help="Refuse (exit 2) what is otherwise scored as the benchmark script scores it and "
    "flagged: empty or repeated questions, repeated ids, empty question lists…",
)


def scheme_file_options(what: str) -> list[Callable[[Any], Any]]:
    """``--schemes`` (the benchmark's walton_schemes.jsonl) and ``--scheme-mapping``;
    ``what`` says what the scheme file's templates are for."""
    return [
        click.option(
            "--schemes",
            type=click.Path(dir_okay=False, exists=True),
            help=f"Scheme templates (the benchmark's walton_schemes.jsonl) {what}.",
        ),
        click.option(
            "--scheme-mapping",
            type=click.Path(dir_okay=False, exists=True),
            help="CSV mapping the dataset's scheme labels to --schemes names.",
        ),
    ]


def is_explicit(ctx: click.Context, name: str) -> bool:
    """Whether the user gave option ``name`` (rather than its default)."""
    source = ctx.get_parameter_source(name)
    return source not in (None, ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)


def component_args(
    ctx: click.Context, entry: Entry, options: dict[str, Any], *, refuse_unused: bool = True
) -> dict[str, Any]:
    """The factory arguments of ``entry`` taken from ``options`` (option name → value).

    An option the factory does not take is dropped if left at its default and a usage
    error if the user gave it: it would otherwise be silently ignored.
    """
    accepted = set(entry.parameters)
    args: dict[str, Any] = {}
    for option, value in options.items():
        name = _INVERTED.get(option, option)
        if name in accepted:
            args[name] = (not value) if option in _INVERTED else value
        elif refuse_unused and is_explicit(ctx, option):
            param = next((p for p in ctx.command.params if p.name == option), None)
            flag = param.opts[0] if param else "--" + option.replace("_", "-")
            raise click.UsageError(f"{flag} does not apply to the {entry.kind} {entry.name!r}")
    return args


def refuse_options_none_take(ctx: click.Context, entries: list[Entry], options: dict) -> None:
    """A usage error for an option the user gave that none of ``entries`` takes."""
    accepted = {p for e in entries for p in e.parameters}
    for option in options:
        if _INVERTED.get(option, option) not in accepted and is_explicit(ctx, option):
            param = next((p for p in ctx.command.params if p.name == option), None)
            flag = param.opts[0] if param else "--" + option.replace("_", "-")
            names = ", ".join(repr(e.name) for e in entries)
            raise click.UsageError(f"{flag} applies to none of the evaluators {names}")
