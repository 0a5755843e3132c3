"""The FOCUS commands: ``generate focus``, ``evaluate focus``, ``meta-eval focus-humans``
and the ``maieutic focus`` tools (convert)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maieutic.cli import CommandGroups

EXAMPLES = {
    "generate focus": "maieutic generate focus --data arguments.jsonl --out predictions.jsonl",
    "evaluate focus": "maieutic evaluate focus --gold dev_gold.csv predictions.jsonl "
    "--out focus.json",
    "meta-eval focus-humans": "maieutic meta-eval focus-humans --gold dev_gold.csv "
    "--annotators annotations/",
    "focus": "maieutic focus convert dev_gold.csv dev_gold.jsonl",
    "focus convert": "maieutic focus convert dev_gold.csv dev_gold.jsonl",
}
"""One example per command, shown at the end of its help."""


def commands(groups: CommandGroups) -> None:
    """Add the task's commands to the command line (its hook in ``COMMAND_HOOKS``)."""
    from maieutic.cli.commands import add_examples, moved_command
    from maieutic.tasks.focus.cli.evaluate import evaluate_focus
    from maieutic.tasks.focus.cli.generate import generate_focus
    from maieutic.tasks.focus.cli.group import focus, focus_humans

    groups.generate.add_command(generate_focus)
    groups.evaluate.add_command(evaluate_focus)
    groups.meta_eval.add_command(focus_humans)
    focus.add_command(moved_command(focus_humans, "agreement", new="meta-eval focus-humans"))
    groups.root.add_command(focus)
    add_examples(groups.root, EXAMPLES)
