"""Options shared by the subcommands, with one name and one meaning everywhere: part of
the public ``maieutic.cli`` API that a task's commands are built on (their value
types are in ``option_types``, their meanings in ``option_meanings``).

``--embedding-model`` always names a sentence-embedding model and ``--llm`` always
names a language model (at ``--base-url``, a GGUF file, or a Hugging Face name); no
command has a bare ``--model``. Options reach a registered component as factory
arguments of the same name (``--no-cache`` becomes ``cache=False``, see
``maieutic.cli.components``); an option given explicitly to a component that does not
take it is a usage error, never ignored.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click
from click.core import ParameterSource

from maieutic.cli.option_types import RegisteredOrScorer, number
from maieutic.registry import entry, factory_defaults, names


def stack(options: list[Callable[[Any], Any]]) -> Callable[[Any], Any]:
    """The decorators ``options`` applied in order (the first is the first in help)."""

    def decorate(func: Any) -> Any:
        return functools.reduce(lambda f, option: option(f), reversed(options), func)

    return decorate


def embedding_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--embedding-model``, ``--embedding-backend``, ``--batch-size``, ``--no-cache``
    (the embedding module is imported only when a command that takes them is built)."""
    from maieutic.embed.encoder import BACKENDS
    from maieutic.embed.options import EMBEDDING_DEFAULTS

    return stack(
        [
            click.option(
                "--embedding-model",
                default=EMBEDDING_DEFAULTS.embedding_model,
                show_default=True,
                help="Sentence-embedding model: a sentence-transformers name or local directory. "
                "A score made with another model than a leaderboard's is another number, "
                "comparable only with scores of the same signature (the STS leaderboard uses "
                "stsb-mpnet-base-v2 at threshold 0.65; --preset paper, where a command offers "
                "it, uses that setting).",
            ),
            click.option(
                "--embedding-backend",
                type=click.Choice(BACKENDS),
                default=EMBEDDING_DEFAULTS.embedding_backend,
                show_default=True,
                help="Run the embedding model with torch or onnxruntime (onnx).",
            ),
            click.option(
                "--batch-size",
                type=click.IntRange(1, 4096),
                default=EMBEDDING_DEFAULTS.batch_size,
                show_default=True,
                help="Texts per embedding batch.",
            ),
            click.option(
                "--no-cache", is_flag=True, help="Do not read or write the on-disk embedding cache."
            ),
        ]
    )(func)


def llm_options(
    func: Callable[..., Any] | None = None, *, defaults_of: tuple[str, str, str] | None = None
) -> Callable[..., Any]:
    """``--llm``, ``--llm-backend``, ``--base-url``, ``--concurrency``, ``--timeout``,
    ``--retries`` (backends imported only when a command taking them is built), showing
    ``LLM_DEFAULTS``, or with ``defaults_of=(KIND, TASK, NAME)`` that registered
    factory's own defaults (one that waits longer per call)."""
    if func is None:
        return functools.partial(llm_options, defaults_of=defaults_of)
    from maieutic.llm.backends.factory import BACKEND_KINDS
    from maieutic.llm.options import LLM_DEFAULTS, LLMOptions

    default = (
        LLMOptions.defaults_of(defaults_of[0], task=defaults_of[1], name=defaults_of[2])
        if defaults_of
        else LLM_DEFAULTS
    )

    return stack(
        [
            click.option(
                "--llm",
                default=None,
                help="Language model: embedded (the default: SmolLM2-135M-Instruct, run "
                "in-process; its own name works too), its name at --base-url, a GGUF file, "
                "or a Hugging Face name.",
            ),
            click.option(
                "--llm-backend",
                type=click.Choice(BACKEND_KINDS),
                default=default.llm_backend,
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
                default=default.concurrency,
                show_default=True,
                help="Model calls in flight at once.",
            ),
            click.option(
                "--timeout",
                type=number(0.1),
                default=default.timeout,
                show_default=True,
                help="Seconds per model call attempt.",
            ),
            click.option(
                "--retries",
                type=click.IntRange(0, 20),
                default=default.retries,
                show_default=True,
                help="Retries of a failed model call (with backoff; Retry-After honoured).",
            ),
        ]
    )(func)


def sampling_options(task: str, *, generator: str = "llm") -> Callable[[Any], Any]:
    """``--seed``, ``--temperature`` and ``--max-tokens``, showing the defaults of the
    task's registered ``generator`` (the command line restates none)."""
    found = factory_defaults("generator", task=task, name=generator)
    temperature, max_tokens = found["temperature"], found["max_tokens"]
    return stack(
        [
            seed_option("Sampling seed."),
            click.option(
                "--temperature",
                type=number(0, max=2),
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


def written_file_option(help: str) -> Callable[[Any], Any]:
    """``--out FILE``, required: the file a generating command writes (``help`` says
    what it holds and what is written beside it)."""
    return click.option(
        "--out", "out_path", required=True, type=click.Path(dir_okay=False), help=help
    )


def data_option(help: str) -> Callable[[Any], Any]:
    """``--data FILE``, required: the task's dataset file (``help`` says what it holds
    for this command)."""
    return click.option(
        "--data", "data_path", required=True, type=click.Path(dir_okay=False), help=help
    )


def component_option(kind: str, *, task: str, default: str, help: str) -> Callable[[Any], Any]:
    """``--KIND`` (``--evaluator``, ``--generator``, ``--selector``): one of the names
    ``task`` registers of that kind, or ``scorer:DIR`` in its place where the task
    registers a learned scorer of that kind; shown with its ``default``."""
    # a component that only a tool of its own builds (its registration names the tool)
    # is no choice here
    known = [
        n for n in names(kind, task=task) if not entry(kind, task=task, name=n).metadata.get("tool")
    ]
    choice = RegisteredOrScorer(kind, task=task) if "scorer" in known else click.Choice(known)
    return click.option(f"--{kind}", type=choice, default=default, show_default=True, help=help)


def seed_option(help: str, default: int = 0) -> Callable[[Any], Any]:
    """``--seed``, shown with its default; ``help`` says what it seeds."""
    return click.option("--seed", type=int, default=default, show_default=True, help=help)


def skip_unknown_option(what: str) -> Callable[[Any], Any]:
    """``--skip-unknown`` for a command that refuses ``what`` (ids a submission has and
    its references lack) unless told to skip them."""
    return click.option(
        "--skip-unknown", is_flag=True, help=f"Warn about and skip {what} (default: error)."
    )


def _svg_only(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not value.lower().endswith(".svg"):
        raise click.BadParameter(
            f"{value}: figures are written as SVG (the PNG plots and matplotlib are gone); "
            "name the file .svg",
            ctx,
            param,
        )
    return value


def plot_option(what: str) -> Callable[[Any], Any]:
    """``--plot FILE.svg``: ``what`` drawn as a standalone SVG file (as in the report)."""
    return click.option(
        "--plot",
        "plot_path",
        type=click.Path(dir_okay=False),
        callback=_svg_only,
        help=f"Write {what} as an SVG figure here (FILE.svg; the report draws it too).",
    )


def strict_option_for(what: str) -> Callable[[Any], Any]:
    """``--strict`` for a command whose tolerated input is ``what`` (its help says what
    is refused, in that command's terms)."""
    return click.option(
        "--strict",
        is_flag=True,
        help=f"Refuse (exit 2) {what}, which is otherwise accepted, flagged and used.",
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


class DeprecatedAlias(click.Option):
    """The old spelling of a renamed option: hidden, still accepted, with a warning."""

    def __init__(self, *args: Any, replacement: str, **kwargs: Any) -> None:
        super().__init__(*args, hidden=True, **kwargs)
        self.replacement = replacement


def deprecated_alias(
    old: str, *, new: str, dest: str, required: bool = False, **attrs: Any
) -> Callable[[Any], Any]:
    """Keep ``old`` (e.g. ``"--out"``) working for the option now spelled ``new`` whose
    parameter is ``dest``: a value given under the old name reaches the command as
    ``dest``, after a warning; giving both is a usage error. ``required``: one of the
    two must be given (``new`` itself is then declared not required). ``attrs`` are
    the old option's click attributes (its type, a ``/--no-…`` flag form…)."""
    hidden = f"{dest}__deprecated_{old.split('/')[0].lstrip('-').replace('-', '_')}"

    def decorate(func: Any) -> Any:
        @functools.wraps(func)
        def merged(*args: Any, **kwargs: Any) -> Any:
            value = kwargs.pop(hidden)
            if value is not None:
                ctx = click.get_current_context()
                if is_explicit(ctx, dest):
                    raise click.UsageError(f"give {new} only ({old} is its old spelling)")
                click.echo(f"warning: {old.split('/')[0]} is deprecated: use {new}", err=True)
                kwargs[dest] = ctx.params[dest] = value
                ctx.set_parameter_source(dest, ParameterSource.COMMANDLINE)
            elif required and kwargs.get(dest) is None:
                raise click.UsageError(f"Missing option '{new}'.")
            click.get_current_context().params.pop(hidden, None)
            return func(*args, **kwargs)

        option = click.option(
            old,
            hidden,
            cls=DeprecatedAlias,
            replacement=new,
            default=None,
            help=f"Deprecated spelling of {new}.",
            **attrs,
        )
        return option(merged)

    return decorate


def engine_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--engine`` and ``--ray-actors`` (read back with ``engine_arguments``)."""
    return stack(
        [
            click.option(
                "--engine",
                type=click.Choice(["local", "ray"]),
                default="local",
                show_default=True,
                help="Where the work runs: in this process, or on Ray (a local Ray "
                "instance, or the cluster RAY_ADDRESS names; pip install 'maieutic[ray]'). "
                "Same numbers and files; see docs/ray.md.",
            ),
            click.option(
                "--ray-actors",
                type=click.IntRange(1, 4096),
                default=None,
                help="Replicas on Ray of the generator (each keeps --concurrency model "
                "calls in flight) or the embedding model (default: 2).",
            ),
        ]
    )(func)


def engine_arguments(options: dict[str, Any]) -> dict[str, Any]:
    """``engine`` and ``ray`` for ``maieutic.generate``, taken out of ``options``."""
    from maieutic.engines import RayOptions

    engine = options.pop("engine", "local")
    actors = options.pop("ray_actors", None)
    if actors is not None and engine != "ray":
        raise click.UsageError("--ray-actors applies to --engine ray only")
    return {"engine": engine, "ray": RayOptions(actors=actors or 2)}
