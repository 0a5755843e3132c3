"""Glue shared by the subcommands: loading inputs, building registered components from
options, printing warnings and progress, the exit code for failed model calls, and the
guard that keeps a command from writing over one of its inputs (``guarded``)."""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from maieutic.data import guard
from maieutic.data.files import is_stdout
from maieutic.registry import entry

MAX_WARNINGS_SHOWN = 10


def echo_warnings(prefix: str, warnings: Sequence[str]) -> None:
    """Print up to ``MAX_WARNINGS_SHOWN`` warnings on stderr, then a count of the rest."""
    from maieutic.terminal_text import terminal_safe  # warnings quote the input

    for line in warnings[:MAX_WARNINGS_SHOWN]:
        click.echo(terminal_safe(f"warning: {prefix}: {line}"), err=True)
    if len(warnings) > MAX_WARNINGS_SHOWN:
        rest = len(warnings) - MAX_WARNINGS_SHOWN
        click.echo(f"warning: {prefix}: … and {rest} more (all are in the results file)", err=True)


def component_options(
    ctx: click.Context,
    kind: str,
    task: str,
    name: str,
    options: dict[str, Any],
    *,
    refuse_unused: bool = True,
) -> dict[str, Any]:
    """The factory arguments of the registered component ``name`` taken from
    command-line ``options`` (see ``maieutic.cli._options.component_args``), checked as
    a command checks them: a threshold given to an LLM judge and an option the
    component does not take are usage errors (with ``refuse_unused`` False the latter
    are left out: a command that builds several components checks them against all of
    them), and a threshold that looks meant for another scale is warned about."""
    from maieutic.cli._options import component_args

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
    task: str,
    name: str,
    options: dict[str, Any],
    *,
    refuse_unused: bool = True,
) -> Any:
    """The registered component built from command-line ``options`` (checked by
    ``component_options``) through the run layer's builder, as ``maieutic.evaluate``
    builds it, so the commands that are no evaluate/generate (meta-eval, sweeps)
    carry the same spec and signature."""
    from maieutic.run.components import build as build_component

    args = component_options(ctx, kind, task, name, options, refuse_unused=refuse_unused)
    built, _warnings = build_component(
        kind, task=task, name=name, options=args
    )  # checked above already
    return built


def fail_on_call_failures(failures: Sequence[str], what: str) -> None:
    """Exit 1 (after results were written) when model calls failed for good."""
    if failures:
        click.echo(
            f"maieutic: error: {len(failures)} {what} call(s) failed; first failure: {failures[0]}",
            err=True,
        )
        raise SystemExit(1)


def console_for(out_path: str | None) -> Console:
    """Where tables go: stdout, or stderr when the results themselves go to stdout.

    Piped output (files, CI logs) gets room for the full table instead of 80 columns.
    """
    to_stderr = is_stdout(out_path)
    stream = sys.stderr if to_stderr else sys.stdout
    return Console(
        file=stream, soft_wrap=True, width=None if stream.isatty() else 160, stderr=to_stderr
    )


@contextlib.contextmanager
def progress_bar(label: str) -> Iterator[Any]:
    """A progress bar on stderr (see ``maieutic.progress``: silent when output is not a
    terminal or with ``--quiet``); yields an ``update(done, total)`` callback."""
    from maieutic.progress import progress

    with progress(label) as update:
        yield update


def refuse_overwriting_inputs(out_path: str | None, inputs: list[str]) -> None:
    """A data error when ``--out`` names, or leads to, one of the input files."""
    from maieutic.data import guard

    if out_path and not is_stdout(out_path):
        guard.check_against(out_path, inputs, "--out")


def meta_path(path: Path) -> Path:
    """The sidecar that records how a generated file was made."""
    return path.with_name(f"{path.stem}.meta.json")


def add_example(command: click.Command, *lines: str) -> None:
    """Append an example block to ``command``'s help, kept as written (once)."""
    if command.help and "\nExample:" in command.help:
        return
    block = "\n".join(f"  {line}" for line in lines)
    # cleaned first: click dedents a docstring's lines by their common indent, which the
    # appended block (not indented) would otherwise cancel
    text = inspect.cleandoc(command.help or "")
    command.help = f"{text}\n\n\b\nExample:\n{block}"


def add_examples(root: click.Group, examples: dict[str, str]) -> None:
    """An example at the end of each named command's help: ``{"evaluate NAME":
    "maieutic evaluate NAME …"}``, the path from ``root`` as typed. A task's
    ``commands`` hook calls it with ``groups.root`` once its commands are added."""
    for path, line in examples.items():
        command: click.Command = root
        for name in path.split():
            assert isinstance(command, click.Group), path
            command = command.commands[name]
        add_example(command, line)


# -- output guard: a command never writes over one of its inputs ----------------------

OUTPUT_FILES = ("--out", "--plot")
"""Options naming a file the command writes (checked against its inputs before it runs)."""
OUTPUT_FOLDERS = ("--out-dir", "--official-dir")
"""Options naming a folder the command writes into (each file checked as it is written)."""
OUTPUT_ARGUMENTS = ("target",)
"""Arguments naming a file the command writes (``convert SOURCE TARGET``)."""


def guarded(command: click.Command) -> click.Command:
    """``command`` (a group: each of its commands) run in a ``maieutic.data.guard``
    scope: the files its options name are its inputs, and its ``--out`` (with the
    names derived from it) and ``--plot`` are refused up front when they lead to one;
    anything it writes later is checked again as it is written."""
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            guarded(sub)
        return command
    if getattr(command, "_maieutic_guarded", False) or command.callback is None:
        return command
    original = command.callback

    @functools.wraps(original)
    def callback(*args: Any, **kwargs: Any) -> Any:
        with guard.command_scope():
            refuse_empty_paths(click.get_current_context())
            _check_paths(click.get_current_context())
            return original(*args, **kwargs)

    command.callback = callback
    command._maieutic_guarded = True  # type: ignore[attr-defined]
    return command


def refuse_empty_paths(ctx: click.Context) -> None:
    """A usage error for a path option or argument given as an empty word: it names no
    file, and ``Path("")`` is the working folder, where an output would then be
    written (``--out-dir ''``) or an input looked for."""
    for param in ctx.command.params:
        if isinstance(param.type, click.Path) and "" in _values(ctx.params.get(param.name or "")):
            raise click.BadParameter("an empty path names no file or folder", ctx, param)


def _check_paths(ctx: click.Context) -> None:
    runs = ctx.params.get("runs")
    outputs: list[tuple[str, Any]] = []
    for param in ctx.command.params:
        value = ctx.params.get(param.name or "")
        names = set(getattr(param, "opts", ()))
        if isinstance(param, click.Argument) and param.name in OUTPUT_ARGUMENTS:
            outputs.append((param.name.upper(), value))
        elif names & set(OUTPUT_FILES):
            outputs.append((min(names & set(OUTPUT_FILES)), value))
        elif not names & set(OUTPUT_FOLDERS) and not isinstance(param.type, click.Choice):
            # a choice (--engine local, --generator template) names no file, even where
            # a folder of that name sits in the working folder
            guard.note_inputs(p for p in _values(value) if _names_a_path(p))
    for option, value in outputs:
        if value is not None and not is_stdout(value):
            count = runs if option == "--out" and isinstance(runs, int) else 1
            guard.check_derived(value, count, option)


def _values(value: Any) -> Iterator[Any]:
    if isinstance(value, (list, tuple)):
        for item in value:
            yield from _values(item)
    elif value is not None:
        yield value


def _names_a_path(value: Any) -> bool:
    if not isinstance(value, (str, Path)) or isinstance(value, bool):
        return False
    text = str(value)
    return 0 < len(text) < 4096 and "\n" not in text and text != "-" and os.path.exists(text)
