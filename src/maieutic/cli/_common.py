"""Glue shared by the subcommands: loading inputs, building registered components from
options, printing warnings and progress, and the exit code for failed model calls."""

from __future__ import annotations

import contextlib
import inspect
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import click
from rich.console import Console

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

    found = entry(kind, task, name)
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
    built, _warnings = build_component(kind, task, name, args)  # checked above already
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
