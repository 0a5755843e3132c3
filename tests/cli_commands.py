"""Every command of the ``maieutic`` tree, the tasks' included (they are mounted on
demand, so the tree is walked through ``list_commands``/``get_command``)."""

from __future__ import annotations

from collections.abc import Iterator

import click

from maieutic.cli.main import cli as root


def walk(
    group: click.Group = root, ctx: click.Context | None = None, prefix: str = ""
) -> Iterator[tuple[str, click.Command]]:
    """``(path, command)`` for every command below ``group``, groups included."""
    ctx = ctx or click.Context(group, info_name="maieutic")
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        path = f"{prefix} {name}".strip()
        yield path, command
        if isinstance(command, click.Group):
            yield from walk(command, click.Context(command, info_name=name, parent=ctx), path)


def leaves() -> list[tuple[str, click.Command]]:
    """The commands that run something (not groups)."""
    return [(p, c) for p, c in walk() if not isinstance(c, click.Group)]
