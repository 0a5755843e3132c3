"""The AURA commands: ``generate aura``, ``evaluate aura``, ``meta-eval aura``,
``train aura``, and the ``maieutic aura`` tools (compare, sweep, agree)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maieutic.cli import CommandGroups


def commands(groups: CommandGroups) -> None:
    """Add the task's commands to the command line (``Task.commands``)."""
    from maieutic.tasks.aura.cli import tools  # noqa: F401 (adds sweep and agree to the group)
    from maieutic.tasks.aura.cli.generate import generate_aura
    from maieutic.tasks.aura.cli.group import aura, evaluate_aura
    from maieutic.tasks.aura.cli.meta_eval import meta_eval_aura
    from maieutic.tasks.aura.cli.train import train_aura

    groups.generate.add_command(generate_aura)
    groups.evaluate.add_command(evaluate_aura)
    groups.meta_eval.add_command(meta_eval_aura)
    groups.train.add_command(train_aura)
    groups.root.add_command(aura)
