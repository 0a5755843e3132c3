"""What a command writes: the guard that keeps it from writing over one of its inputs,
the check that ``--out`` names a file, and the record written to ``--out``. Part of
the public ``maieutic.cli`` API that a task's commands are built on. Every command of
the tree runs ``guarded`` (the command tree wraps them), so a task's command gets it
without asking; ``refuse_overwriting_inputs`` checks an ``--out`` against inputs a
command reads from elsewhere (inside folders, for instance) before it starts."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from maieutic.data import guard
from maieutic.data.files import is_stdout, rewritable, write_json
from maieutic.data.surrogates import refuse_lone_surrogates
from maieutic.provenance import provenance
from maieutic.signature import Signature


def refuse_overwriting_inputs(out_path: str | None, inputs: list[str]) -> None:
    """A data error when ``--out`` names, or leads to, one of the input files."""
    if out_path and not is_stdout(out_path):
        guard.check_against(out_path, inputs, "--out")


OUTPUT_FILES = ("--out", "--out-submission", "--plot")
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
    written (``--out-dir ''``) or an input looked for; and for any option whose value
    is not UTF-8 text."""
    for param in ctx.command.params:
        values = [v for v in _values(ctx.params.get(param.name or "")) if isinstance(v, str)]
        # a byte that is no UTF-8 character (a file name from another system) reaches
        # Python as a lone surrogate, which no file maieutic writes (JSON, a results
        # record naming its inputs) can hold: the run would be lost at its end
        where = "<argument>" if isinstance(param, click.Argument) else _option_name(param)
        for value in values:
            refuse_lone_surrogates(value, where=where)
        if not isinstance(param.type, click.Path):
            continue
        if "" in values:
            raise click.BadParameter("an empty path names no file or folder", ctx, param)
        if any(not v.strip() for v in values):
            # a name of spaces alone is a slip (an unset shell variable in quotes), and
            # a folder named by a space is one nobody finds again
            raise click.BadParameter("a path of spaces alone names no file or folder", ctx, param)


def _option_name(param: click.Parameter) -> str:
    longest = max(getattr(param, "opts", ()) or [param.name or "?"], key=len)
    return longest


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


def require_written_file(out_path: str, *, why: str) -> None:
    """A usage error unless ``--out`` names a file that can be written whole (not
    standard output, not a folder): ``why`` ends the message (``" (three files are
    written)"``)."""
    if is_stdout(out_path) or not rewritable(out_path):
        raise click.UsageError(f"--out must be a file path{why}")


def write_record(
    out_path: str | None,
    record: Callable[..., Any],
    *,
    ctx: click.Context,
    with_signature: Signature | None = None,
    **fields: Any,
) -> None:
    """When ``--out`` was given, the command's record written there as JSON:
    ``record(**fields)`` with the provenance of the command's options and, given
    ``with_signature``, that signature as a dict and as its one-line string."""
    if not out_path:
        return
    if with_signature is not None:
        fields["signature"] = with_signature.as_dict()
        fields["signature_string"] = str(with_signature)
    write_json(out_path, record(provenance=provenance(ctx.params), **fields).to_json())
