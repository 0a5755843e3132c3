"""What help and notes say to a newcomer: every task listed with what it is, no option
that the command does not take, and STS scores that cannot be compared with the
leaderboard's said so once."""

from __future__ import annotations

from maieutic.registry import task_modules, task_summary
from maieutic.signature import Signature
from maieutic.tasks.cqs.presets import leaderboard_note
from tests.conftest import write_json
from tests.test_cli_surface import DATASET, SUBMISSION


def test_root_help_says_what_each_task_is(cli):
    result = cli("--help")
    assert result.code == 0
    assert "its own tools, and where its commands are" not in result.out
    builtin = [name for name, module in task_modules().items() if module.startswith("maieutic.")]
    assert builtin and all(task_summary(name) for name in builtin)  # each task says it
    assert "(FOCUS)" in result.out and "(AURA)" in result.out  # each task says what it is


def test_ask_help_names_no_option_ask_does_not_take(cli):
    result = cli("ask", "--help")
    assert result.code == 0
    assert "--examples" not in result.out


def test_the_leaderboard_note_only_for_another_sts_setting():
    ours = Signature(task="cqs", evaluator="sts", model="all-MiniLM-L6-v2", threshold=0.6)
    note = leaderboard_note(ours)
    assert note and "all-MiniLM-L6-v2 at threshold 0.6" in note and "--preset paper" in note
    paper = Signature(task="cqs", evaluator="sts", model="stsb-mpnet-base-v2", threshold=0.65)
    assert leaderboard_note(paper) is None
    assert leaderboard_note(Signature(task="cqs", evaluator="chrf", threshold=0.6)) is None


def test_evaluate_says_the_note_once_for_several_submissions(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    first = write_json(tmp_path / "a.json", SUBMISSION)
    second = write_json(tmp_path / "b.json", SUBMISSION)
    result = cli("evaluate", "cqs", "--data", data, first, second)
    assert result.code == 0, result.err
    assert result.err.count("note: these STS scores use") == 1
    chrf = cli("evaluate", "cqs", "--data", data, first, "--evaluator", "chrf")
    assert chrf.code == 0 and "note: these STS scores" not in chrf.err
