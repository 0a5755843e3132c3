"""What a command prints besides its results: warnings on stderr (a few, then a
count), the exit for model calls that failed for good, and the console its tables go
to. Part of the public ``maieutic.cli`` API that a task's commands are built on."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click
from rich.console import Console

from maieutic.data.files import is_stdout
from maieutic.terminal_text import terminal_safe

MAX_WARNINGS_SHOWN = 10


def echo_warnings(prefix: str, warnings: Sequence[str]) -> None:
    """Print up to ``MAX_WARNINGS_SHOWN`` warnings on stderr, then a count of the rest
    (each made terminal-safe: warnings quote the input)."""
    for line in warnings[:MAX_WARNINGS_SHOWN]:
        click.echo(terminal_safe(f"warning: {prefix}: {line}"), err=True)
    if len(warnings) > MAX_WARNINGS_SHOWN:
        rest = len(warnings) - MAX_WARNINGS_SHOWN
        click.echo(f"warning: {prefix}: … and {rest} more (all are in the results file)", err=True)


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
