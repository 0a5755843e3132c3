"""The AURA commands: ``generate aura``, ``evaluate aura``, ``meta-eval aura`` and
``meta-eval aura-preferences``, ``train aura``, and the ``maieutic aura`` tools
(compare, sweep)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maieutic.cli import CommandGroups

EXAMPLES = {
    "generate aura": "maieutic generate aura --document article.pdf --out questions.json",
    "evaluate aura": "maieutic evaluate aura article.pdf questions.json --out aura.json",
    "meta-eval aura": "maieutic meta-eval aura --qgeval instances-dev.json",
    "meta-eval aura-preferences": "maieutic meta-eval aura-preferences preferences.jsonl",
    "train aura": "maieutic train aura --qgeval instances-dev.json --out-dir scorer-aura",
    "aura": "maieutic aura compare article.pdf questions_a.json questions_b.json",
    "aura compare": "maieutic aura compare article.pdf questions_a.json questions_b.json",
    "aura sweep": "maieutic aura sweep article.pdf questions_a.json questions_b.json",
}
"""One example per command, shown at the end of its help."""


def commands(groups: CommandGroups) -> None:
    """Add the task's commands to the command line (its hook in ``COMMAND_HOOKS``)."""
    from maieutic.cli.commands import add_examples, moved_command
    from maieutic.tasks.aura.cli.generate import generate_aura
    from maieutic.tasks.aura.cli.group import aura, evaluate_aura
    from maieutic.tasks.aura.cli.meta_eval import meta_eval_aura
    from maieutic.tasks.aura.cli.preferences import aura_preferences
    from maieutic.tasks.aura.cli.tools import sweep  # noqa: F401  (registers aura sweep)
    from maieutic.tasks.aura.cli.train import train_aura

    groups.generate.add_command(generate_aura)
    groups.evaluate.add_command(evaluate_aura)
    groups.meta_eval.add_command(meta_eval_aura)
    groups.meta_eval.add_command(aura_preferences)
    aura.add_command(moved_command(aura_preferences, "agree", new="meta-eval aura-preferences"))
    groups.train.add_command(train_aura)
    groups.root.add_command(aura)
    add_examples(groups.root, EXAMPLES)
