"""From command-line options to registered components: the factory arguments a
component takes out of a command's options (checked as a command checks them) and
the component built from them. Part of the public ``maieutic.cli`` API that a task's
commands are built on."""

from __future__ import annotations

from typing import Any

import click

from maieutic.cli.options import is_explicit
from maieutic.registry import Entry, entry
from maieutic.run.components import build as build_component
from maieutic.run.components import split_scorer

_INVERTED = {"no_cache": "cache"}


def component_args(
    ctx: click.Context, entry: Entry, options: dict[str, Any], *, refuse_unused: bool = True
) -> dict[str, Any]:
    """The factory arguments of ``entry`` taken from ``options`` (option name → value).

    An option left unset (None) is not passed, so the factory's own default applies: a
    component's defaults live in its factory alone (a test checks that every option's
    shown default agrees with them). An option the factory does not take is dropped if
    left at its default and a usage error if the user gave it: it would otherwise be
    silently ignored.
    """
    accepted = set(entry.parameters)
    args: dict[str, Any] = {}
    for option, value in options.items():
        name = _INVERTED.get(option, option)
        if name in accepted:
            if value is not None:  # None: not given, so the factory's default applies
                args[name] = (not value) if option in _INVERTED else value
        elif refuse_unused and is_explicit(ctx, option):
            flag = _flag(ctx, option)
            raise click.UsageError(f"{flag} does not apply to the {entry.kind} {entry.name!r}")
    return args


def refuse_options_none_take(ctx: click.Context, entries: list[Entry], options: dict) -> None:
    """A usage error for an option the user gave that none of ``entries`` takes."""
    accepted = {p for e in entries for p in e.parameters}
    for option in options:
        if _INVERTED.get(option, option) not in accepted and is_explicit(ctx, option):
            names = ", ".join(repr(e.name) for e in entries)
            raise click.UsageError(
                f"{_flag(ctx, option)} applies to none of the evaluators {names}"
            )


def _flag(ctx: click.Context, option: str) -> str:
    """How the user spells the option whose parameter is ``option`` (``--no-cache``)."""
    param = next((p for p in ctx.command.params if p.name == option), None)
    return param.opts[0] if param else "--" + option.replace("_", "-")


def split_evaluator(value: str, options: dict[str, Any]) -> str:
    """The registered name; a ``scorer:DIR`` puts DIR into ``options['scorer']`` (the
    run layer's ``split_scorer``: the prefix is read in one place)."""
    return split_scorer(value, options)


def component_options(
    ctx: click.Context,
    kind: str,
    *,
    task: str,
    name: str,
    options: dict[str, Any],
    refuse_unused: bool = True,
) -> dict[str, Any]:
    """The factory arguments of the registered component ``name`` taken from
    command-line ``options`` (see ``component_args``), checked as
    a command checks them: a threshold given to an LLM judge and an option the
    component does not take are usage errors (with ``refuse_unused`` False the latter
    are left out: a command that builds several components checks them against all of
    them), and a threshold that looks meant for another scale is warned about."""
    from maieutic.cli.components import component_args

    found = entry(kind, task=task, name=name)
    threshold = options.get("threshold")
    if threshold is not None and found.threshold is None:
        raise click.UsageError(f"{kind} {name!r} does not use a threshold (it is an LLM judge)")
    if threshold is not None and (doubt := found.threshold.doubt(threshold, name)):
        click.echo(f"warning: {doubt}", err=True)
    return component_args(ctx, found, options, refuse_unused=refuse_unused)


def build(
    ctx: click.Context,
    kind: str,
    *,
    task: str,
    name: str,
    options: dict[str, Any],
    refuse_unused: bool = True,
) -> Any:
    """The registered component built from command-line ``options`` (checked by
    ``component_options``) through the run layer's builder, as ``maieutic.evaluate``
    builds it, so the commands that are no evaluate/generate (meta-eval, sweeps)
    carry the same spec and signature."""
    args = component_options(
        ctx, kind, task=task, name=name, options=options, refuse_unused=refuse_unused
    )
    built, _warnings = build_component(
        kind, task=task, name=name, options=args
    )  # checked above already
    return built
