"""The critical-question commands: ``generate cqs``, ``evaluate cqs``, ``meta-eval
cqs``, ``meta-eval cqs-compare``, ``train cqs`` and the ``maieutic cqs`` tools (stats,
select, replay)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maieutic.cli import CommandGroups

EXAMPLES = {
    "generate cqs": "maieutic generate cqs --data validation-dev.json --out cqs.json",
    "evaluate cqs": "maieutic evaluate cqs --data validation-dev.json cqs.json --out results.json",
    "meta-eval cqs": "maieutic meta-eval cqs --data test-dev.json --outputs "
    "extended_test-dev.json --curve",
    "meta-eval cqs-compare": "maieutic meta-eval cqs-compare --data validation-dev.json "
    "--evaluator sts --evaluator chrf cqs.json other.json",
    "train cqs": "maieutic train cqs --data validation-dev.json --out-dir scorer-cqs",
    "cqs": "maieutic cqs stats validation-dev.json test-dev.json",
    "cqs stats": "maieutic cqs stats validation-dev.json test-dev.json",
    "cqs select": "maieutic cqs select extended_test-dev.json --selector usefulness "
    "--out chosen.json",
    "cqs replay": "maieutic cqs replay extended_test-dev.json --port 8081",
}
"""One example per command, shown at the end of its help."""


def commands(groups: CommandGroups) -> None:
    """Add the task's commands to the command line (its hook in ``COMMAND_HOOKS``)."""
    from maieutic.cli.commands import add_examples
    from maieutic.tasks.cqs.cli.candidates import replay, select
    from maieutic.tasks.cqs.cli.compare import meta_eval_compare
    from maieutic.tasks.cqs.cli.evaluate import evaluate_cqs
    from maieutic.tasks.cqs.cli.generate import generate_cqs
    from maieutic.tasks.cqs.cli.meta_eval import meta_eval_cqs
    from maieutic.tasks.cqs.cli.tools import cqs
    from maieutic.tasks.cqs.cli.train import train_cqs

    groups.generate.add_command(generate_cqs)
    groups.evaluate.add_command(evaluate_cqs)
    groups.meta_eval.add_command(meta_eval_cqs)
    groups.meta_eval.add_command(meta_eval_compare)
    groups.train.add_command(train_cqs)
    cqs.add_command(select)
    cqs.add_command(replay)
    groups.root.add_command(cqs)
    add_examples(groups.root, EXAMPLES)
