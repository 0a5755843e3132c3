"""What a task's ``commands`` hook does to the commands it adds, besides adding them:
an example at the end of each one's help, and a hidden copy of a moved command under
its old name. Part of the public ``maieutic.cli`` API that tasks build on."""

from __future__ import annotations

import copy
import inspect

import click


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


def moved_command(command: click.Command, old: str, *, new: str) -> click.Command:
    """A hidden copy of ``command`` under its old place's name ``old`` (e.g. ``"agree"``
    in a task's group) that warns, then runs it; ``new`` is where it lives now
    (``"meta-eval TASK"``)."""
    alias = copy.copy(command)
    alias.name, alias.hidden = old, True
    alias.help = f"Deprecated: now `maieutic {new}`."
    parse = alias.parse_args

    def warned(ctx: click.Context, args: list[str]) -> list[str]:
        # warned before the arguments are checked, so a usage error also says where
        click.echo(f"warning: this command is deprecated: use `maieutic {new}`", err=True)
        return parse(ctx, args)

    alias.parse_args = warned  # type: ignore[method-assign]
    return alias
