"""The AURA commands: ``generate aura``, ``evaluate aura``, ``meta-eval aura`` and
``meta-eval aura-preferences``, ``train aura``, and the ``maieutic aura`` tools
(compare, sweep)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maieutic.cli import CommandGroups


def commands(groups: CommandGroups) -> None:
    """Add the task's commands to the command line (``Task.commands``)."""
    from maieutic.cli._options import moved_command
    from maieutic.tasks.aura.cli.generate import generate_aura
    from maieutic.tasks.aura.cli.group import aura, evaluate_aura
    from maieutic.tasks.aura.cli.meta_eval import meta_eval_aura
    from maieutic.tasks.aura.cli.tools import aura_preferences
    from maieutic.tasks.aura.cli.train import train_aura

    groups.generate.add_command(generate_aura)
    groups.evaluate.add_command(evaluate_aura)
    groups.meta_eval.add_command(meta_eval_aura)
    groups.meta_eval.add_command(aura_preferences)
    aura.add_command(moved_command(aura_preferences, "agree", "meta-eval aura-preferences"))
    groups.train.add_command(train_aura)
    groups.root.add_command(aura)
