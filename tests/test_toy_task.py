"""A fifth task from one folder and one line: the documented toy task (the folder
docs/examples/yesno/, shown verbatim in docs/adding-a-task.md) is copied out of the
repository, registered with ``maieutic.registry.add_task``, and — with no other edit —
generates, evaluates (a leaderboard with its columns), gets its report section, and
runs from Python; the page's commands and Python example are run as written."""

from __future__ import annotations

import contextlib
import importlib
import json
import re
import shlex
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from maieutic import registry

REPO = Path(__file__).resolve().parents[1]
TOY = REPO / "docs" / "examples" / "yesno"
DOC = REPO / "docs" / "adding-a-task.md"


def _fenced(language: str) -> list[str]:
    """The blocks of the page fenced as ``language`` after its "Try it" heading."""
    text = DOC.read_text(encoding="utf-8").split("### Try it", 1)[1]
    return re.findall(rf"```{language}\n(.*?)```", text, re.DOTALL)


@contextlib.contextmanager
def forgotten_afterwards(module: str) -> Iterator[None]:
    """Whatever the block makes known about the task ``yesno`` is forgotten after it:
    the task list, its registry entries, the commands mounted for it and ``module``
    with its submodules, so nothing leaks into other tests."""
    from maieutic.cli import COMMAND_HOOKS
    from maieutic.cli.main import TREE
    from maieutic.report.hooks import REPORT_HOOKS
    from maieutic.web.hooks import LEADERBOARDS

    groups = [TREE.root, TREE.generate, TREE.evaluate, TREE.meta_eval, TREE.train]
    commands = [dict(group.commands) for group in groups]
    mounted = dict(TREE.mounted)
    known = dict(registry.task_modules())
    try:
        yield
    finally:
        registry.task_modules.cache_clear()
        registry.task_modules().clear()
        registry.task_modules().update(known)
        for key in [k for k in registry._ENTRIES if k[1] == "yesno"]:
            del registry._ENTRIES[key]
        for table in (REPORT_HOOKS, COMMAND_HOOKS, LEADERBOARDS):
            table.discard("yesno")
        for group, saved in zip(groups, commands, strict=True):
            group.commands = saved
        TREE.mounted = mounted
        for name in [m for m in sys.modules if m == module or m.startswith(f"{module}.")]:
            del sys.modules[name]


@contextlib.contextmanager
def registered(folder: Path) -> Iterator[None]:
    """``folder`` importable as ``yesno`` and known as a task by the one line."""
    sys.path.insert(0, str(folder.parent))
    importlib.invalidate_caches()
    try:
        with forgotten_afterwards("yesno"):
            registry.add_task("yesno", module="yesno")  # the one registration line
            yield
    finally:
        sys.path.remove(str(folder.parent))


@pytest.fixture
def yesno(tmp_path, monkeypatch) -> Iterator[Path]:
    """The toy folder copied into tmp_path and registered; the working directory."""
    folder = tmp_path / "yesno"
    shutil.copytree(TOY, folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.chdir(folder)
    with registered(folder):
        yield folder


def _run_documented_commands(cli) -> dict[str, object]:
    """Each ``maieutic …`` line of the page's shell block, run in-process; their
    results by verb."""
    [block] = _fenced("bash")
    done = {}
    for line in block.splitlines():
        argv = shlex.split(line)
        assert argv[0] == "maieutic", line
        result = cli(*argv[1:])
        assert result.code == 0, f"{line}\n{result.err}"
        done[argv[1]] = result
    return done


def test_the_documented_commands_generate_evaluate_and_report(yesno, cli):
    done = _run_documented_commands(cli)
    meta = json.loads((yesno / "always-yes.meta.json").read_text())
    assert meta["task"] == "yesno" and meta["generator"]["name"] == "constant"
    assert meta["signature_string"].startswith("task:yesno|gen:constant|data:")
    assert json.loads((yesno / "negation.json").read_text())[4] == {"id": "q5", "answer": "no"}
    board = done["evaluate"].out
    assert "yes rate" in board and "answered" in board  # the task's columns
    assert board.index("negation") < board.index("always-yes")  # ranked by score
    assert "0.6667" in board and "0.3333" in board
    results = json.loads((yesno / "results.json").read_text())
    assert results["task"] == "yesno"
    assert [r["score"] for r in results["results"]] == [2 / 6, 4 / 6]
    page = (yesno / "report.html").read_text(encoding="utf-8")
    for shown in ("Yes/no answers", "Answers per question", "yes rate", "✗ yes"):
        assert shown in page, shown
    assert "no detailed view" not in page


def test_the_documented_python_example_runs(yesno, cli):
    _run_documented_commands(cli)  # it scores the files the commands generated
    [code] = _fenced("python")
    namespace: dict = {}
    exec(compile(code, str(DOC), "exec"), namespace)  # its own asserts check the results
    run = namespace["run"]
    assert run["negation"].summary == {"accuracy": 4 / 6, "n_answered": 6, "yes_rate": 4 / 6}
    assert registry.rebuild(run.evaluator).spec == run.evaluator
    assert namespace["generated"].generator.args == {"answer": "no"}


def test_python_evaluates_objects_and_paths_alike(yesno):
    from yesno.data import Answers, load_questions

    import maieutic

    reference = load_questions("samples/questions.json")
    answers = {key: "no" for key in reference.answers}
    run = maieutic.evaluate(
        "yesno", reference, submissions=[Answers(answers, "<memory>", "all-no")]
    )
    assert run.scores == {"all-no": 4 / 6}
    assert run.summary_frame().loc["all-no", "summary.yes_rate"] == 0
    assert len(run.to_frame()) == 6


def test_flagged_and_unknown_answers(yesno, cli):
    (yesno / "odd.json").write_text(
        json.dumps([{"id": "q1", "answer": "Maybe"}, {"id": "q2", "answer": "no"}])
    )
    flagged = cli("evaluate", "yesno", "--data", "samples/questions.json", "odd.json")
    assert flagged.code == 0, flagged.err
    assert "warning: odd: q1.answer: 'maybe' is not yes or no" in flagged.err
    strict = cli("evaluate", "yesno", "--data", "samples/questions.json", "odd.json", "--strict")
    assert strict.code == 2 and "--strict refuses" in strict.err
    (yesno / "extra.json").write_text(json.dumps([{"id": "q9", "answer": "yes"}]))
    unknown = cli("evaluate", "yesno", "--data", "samples/questions.json", "extra.json")
    assert unknown.code == 2 and "id 'q9' is not in the reference" in unknown.err
    skipped = cli(
        "evaluate", "yesno", "--data", "samples/questions.json", "extra.json", "--skip-unknown"
    )
    assert skipped.code == 0 and "skipped 1 id(s)" in skipped.err
    missing = cli("evaluate", "yesno", "odd.json")
    assert missing.code == 2 and "give data" in missing.err
    bad = cli("generate", "yesno", "--data", "odd.json", "--generator", "constant", "--out", "x")
    assert bad.code == 2 and "missing field 'question'" in bad.err


def test_the_generic_commands_fit_the_option_table(yesno, cli):
    from maieutic.cli.main import TREE
    from maieutic.cli.option_meanings import disagreements

    ctx = click.Context(TREE.root)
    for verb in (TREE.evaluate, TREE.generate):
        command = verb.get_command(ctx, "yesno")
        options = [p for p in command.params if isinstance(p, click.Option)]
        assert options and not [d for p in options for d in disagreements(p)]
    assert TREE.mounted["yesno"] == ["generate yesno", "evaluate yesno"]
    group = cli("yesno", "--help")
    assert "maieutic generate yesno, maieutic evaluate yesno" in " ".join(group.out.split())
    help_text = cli("generate", "yesno", "--help").out
    assert "[constant|negation]" in help_text and "--threshold" not in help_text


def test_the_registration_does_not_leak(tmp_path, cli):
    folder = tmp_path / "yesno"
    shutil.copytree(TOY, folder, ignore=shutil.ignore_patterns("__pycache__"))
    with registered(folder):
        assert cli("evaluate", "yesno", "--help").code == 0
        assert "exact" in registry.names("evaluator", task="yesno")
    from maieutic.cli.main import TREE

    assert "yesno" not in registry.task_modules() and "yesno" not in sys.modules
    assert registry.names("evaluator", task="yesno") == []
    assert "yesno" not in TREE.evaluate.commands and "yesno" not in TREE.mounted
    assert cli("evaluate", "yesno").code == 2


TASK_WITH_ITS_OWN_EVALUATE = """
import click
from maieutic.cli import COMMAND_HOOKS
from maieutic.core import Task
from maieutic.registry import register
from yesno.data import load_answers, load_questions
from yesno import evaluators, generators  # noqa: F401


@click.command("own")
def evaluate_own():
    click.echo("its own")


def commands(groups):
    groups.evaluate.add_command(evaluate_own)


@register("task", task="own", name="own")
def task():
    return Task(
        name="own", description="", load_reference=load_questions, load_submission=load_answers
    )


COMMAND_HOOKS.add("own", commands)


register("evaluator", task="own", name="exact")(evaluators.exact.__wrapped__)
register("generator", task="own", name="negation")(generators.negation.__wrapped__)
"""


def test_the_generic_commands_fill_only_what_a_hook_leaves_out(yesno, cli):
    (yesno.parent / "own_task.py").write_text(TASK_WITH_ITS_OWN_EVALUATE)
    registry.add_task("own", module="own_task")  # forgotten with the fixture's task list
    try:
        assert cli("evaluate", "own").out == "its own\n"
        generated = cli("generate", "own", "--data", "samples/questions.json", "--out", "o.json")
        assert generated.code == 0, generated.err
        assert json.loads((yesno / "o.meta.json").read_text())["task"] == "own"
    finally:
        for key in [k for k in registry._ENTRIES if k[1] == "own"]:
            del registry._ENTRIES[key]
        sys.modules.pop("own_task", None)


def test_the_folder_is_a_task_as_a_subpackage_of_maieutic_tasks_too(tmp_path, cli, monkeypatch):
    import maieutic.tasks

    shutil.copytree(TOY, tmp_path / "yesno", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(maieutic.tasks, "__path__", [*maieutic.tasks.__path__, str(tmp_path)])
    monkeypatch.chdir(tmp_path / "yesno")
    with forgotten_afterwards("maieutic.tasks.yesno"):
        registry.task_modules.cache_clear()  # found like the tasks in src/maieutic/tasks/
        assert registry.task_modules()["yesno"] == "maieutic.tasks.yesno"
        done = cli(
            "evaluate", "yesno", "--data", "samples/questions.json", "samples/questions.json"
        )
        assert done.code == 0 and "1.0000" in done.out, done.err  # the reference, perfect
