"""The CompQA commands: ``generate compqa``, ``evaluate compqa``, ``meta-eval compqa``
(a judge against people) and ``meta-eval compqa-humans`` (people against each other),
and the ``maieutic compqa`` tools (table, breakdown, extremes, export-sft)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maieutic.cli import CommandGroups

EXAMPLES = {
    "generate compqa": "maieutic generate compqa --questions questions.json --out-dir answers "
    "--scenario 1",
    "evaluate compqa": "maieutic evaluate compqa answers/ --out compqa.json",
    "meta-eval compqa": "maieutic meta-eval compqa --judged judged/ "
    "--humans human_evaluation_367.tsv",
    "meta-eval compqa-humans": "maieutic meta-eval compqa-humans dataset_hum1_evaluation.tsv "
    "dataset_hum2_evaluation.tsv",
    "compqa": "maieutic compqa table --judged judged/",
    "compqa table": "maieutic compqa table --judged judged/",
    "compqa breakdown": "maieutic compqa breakdown --judge gpt-4o=judged/gpt-4 "
    "--judge human=human_evaluation_367.tsv --by generator",
    "compqa extremes": "maieutic compqa extremes --judged judged/gpt-4 "
    "--humans human_evaluation_367.tsv",
    "compqa export-sft": "maieutic compqa export-sft --judged judged/ --min-score 18 "
    "--out sft.jsonl",
}
"""One example per command, shown at the end of its help."""


def commands(groups: CommandGroups) -> None:
    """Add the task's commands to the command line (its hook in ``COMMAND_HOOKS``)."""
    from maieutic.cli.commands import add_examples, moved_command
    from maieutic.tasks.compqa.cli.evaluate import evaluate_compqa
    from maieutic.tasks.compqa.cli.extremes import extremes
    from maieutic.tasks.compqa.cli.generate import generate_compqa
    from maieutic.tasks.compqa.cli.group import compqa, compqa_judge
    from maieutic.tasks.compqa.cli.meta_eval import compqa_humans
    from maieutic.tasks.compqa.cli.paper import breakdown

    groups.generate.add_command(generate_compqa)
    groups.evaluate.add_command(evaluate_compqa)
    groups.meta_eval.add_command(compqa_judge)
    groups.meta_eval.add_command(compqa_humans)
    compqa.add_command(moved_command(compqa_judge, "agree", new="meta-eval compqa"))
    compqa.add_command(breakdown)
    compqa.add_command(extremes)
    groups.root.add_command(compqa)
    add_examples(groups.root, EXAMPLES)
