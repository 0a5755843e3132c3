"""The FOCUS commands: ``generate focus``, ``evaluate focus``, and the ``maieutic
focus`` tools (convert, agreement)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maieutic.cli import CommandGroups


def commands(groups: CommandGroups) -> None:
    """Add the task's commands to the command line (``Task.commands``)."""
    from maieutic.tasks.focus.cli.evaluate import evaluate_focus
    from maieutic.tasks.focus.cli.generate import generate_focus
    from maieutic.tasks.focus.cli.group import focus

    groups.generate.add_command(generate_focus)
    groups.evaluate.add_command(evaluate_focus)
    groups.root.add_command(focus)
