"""docs/architecture.md answers a newcomer's three questions (which file for a new
report block, a new option of one task, a new evaluator): the files it names exist and
hold what it says they hold, so the answers cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "architecture.md"
CQS = REPO / "src" / "maieutic" / "tasks" / "cqs"


def test_every_path_the_doc_names_exists():
    named = set(re.findall(r"`(src/maieutic/[\w/.]+)`", DOC.read_text(encoding="utf-8")))
    assert len(named) >= 8
    assert not [p for p in named if not (REPO / p).exists()]


def test_a_report_block_goes_in_the_task_report_module_handed_over_once():
    assert "def cqs_blocks(" in (CQS / "report.py").read_text(encoding="utf-8")
    init = (CQS / "__init__.py").read_text(encoding="utf-8")
    assert 'deferred("maieutic.tasks.cqs.report:cqs_blocks")' in init
    assert "REPORT_HOOKS.add(" in init


def test_an_option_of_one_task_goes_in_its_command_module():
    assert "click.option" in (CQS / "cli" / "evaluate.py").read_text(encoding="utf-8")


def test_an_evaluator_is_a_registered_factory_in_the_task_evaluators_module():
    evaluators = (CQS / "evaluators.py").read_text(encoding="utf-8")
    assert '@register("evaluator", task="cqs"' in evaluators
    assert "class CQEvaluator(BaseEvaluator)" in (CQS / "evaluate.py").read_text(encoding="utf-8")
    assert "class Matcher(Protocol)" in (CQS / "matchers.py").read_text(encoding="utf-8")
