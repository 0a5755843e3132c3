"""The shape of the command line: a core that names no task, tasks mounted through
their command hook (``maieutic.cli.COMMAND_HOOKS``, and only when needed), one meaning
per option name, old option spellings that still work, and figures written as SVG."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import maieutic.cli
from maieutic.cli import CommandGroups, RootGroup, TaskGroup
from maieutic.cli.main import cli as root
from maieutic.cli.option_meanings import MEANINGS, disagreements
from maieutic.cli.options import DeprecatedAlias, deprecated_alias
from tests.cli_commands import leaves, walk
from tests.conftest import write_json

REPO = Path(__file__).resolve().parents[1]
CLI_DIR = REPO / "src" / "maieutic" / "cli"
TASK_NAMES = re.compile(r"\b(cqs|focus|aura|compqa)\b", re.IGNORECASE)


def _options(command: click.Command) -> list[click.Option]:
    return [p for p in command.params if isinstance(p, click.Option)]


# -- the core names no task ----------------------------------------------------------------


def test_no_file_of_the_core_command_line_names_a_task():
    found = [
        f"{path.relative_to(REPO)}:{n}: {line.strip()}"
        for path in sorted(CLI_DIR.rglob("*"))
        if path.is_file() and path.suffix != ".pyc"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if TASK_NAMES.search(line)
    ]
    assert not found, "\n".join(found)


PUBLIC_API = {
    "options",
    "option_types",
    "option_meanings",
    "components",
    "outputs",
    "printing",
    "commands",
}
"""The modules of ``maieutic.cli`` that tasks build their commands on."""


def test_the_core_command_line_is_small_and_named_after_its_commands():
    modules = sorted(p.name for p in CLI_DIR.iterdir() if p.is_file())
    commands = {n.replace("-", "_") for n in root.commands} | {"main"}
    # one module per core command (compare, report, serve, serve-llm, setup-llm, train
    # scorer, main), the public API tasks build on, and a few private helpers
    assert len(modules) <= len(commands) + len(PUBLIC_API) + 5, modules
    for name in modules:
        stem = name.removesuffix(".py")
        # a command's module is named after it, an API module after its job (and listed
        # where the package says what tasks build on); anything else is a _helper
        assert stem.startswith("_") or stem in commands | PUBLIC_API, name
    for stem in PUBLIC_API:
        assert f"``maieutic.cli.{stem}``" in (maieutic.cli.__doc__ or ""), stem


PENDING: set[str] = set()
"""Files that may still import a private module of the command line (none)."""


def test_nothing_outside_the_core_command_line_imports_its_private_modules():
    package = REPO / "src" / "maieutic"
    files = [p for p in package.rglob("*.py") if CLI_DIR not in p.parents]
    files += [p for p in (REPO / "tests").rglob("*.py") if p != Path(__file__).resolve()]
    found = [
        f"{where}:{n}: {line.strip()}"
        for path in sorted(files)
        if (where := path.relative_to(REPO).as_posix()).removeprefix("src/maieutic/") not in PENDING
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(r"\bmaieutic\.cli\._[a-z]", line)
    ]
    assert not found, "\n".join(found)


# -- tasks join through one hook, on demand -------------------------------------------------


def _imported_after(*argv: str) -> set[str]:
    code = (
        "import sys; from maieutic.cli.main import run; run(list(sys.argv[1:])); "
        "print('imported:', *sorted(m for m in sys.modules if m.startswith('maieutic.')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True
    )
    last = done.stdout.splitlines()[-1]
    assert last.startswith("imported:"), done.stdout
    return set(last.split()[1:])


def test_top_level_help_imports_no_task():
    imported = _imported_after("--help")
    # maieutic.tasks.io is the I/O contract every task implements (shared, like Task)
    tasks = {m for m in imported if m.startswith("maieutic.tasks.") and m != "maieutic.tasks.io"}
    assert not tasks, imported
    assert not {m for m in imported if m.startswith(("maieutic.embed", "maieutic.ask"))}


def test_a_task_command_mounts_that_task_alone():
    imported = _imported_after("evaluate", "compqa", "--help")
    assert "maieutic.tasks.compqa.cli.evaluate" in imported
    assert not {
        m for m in imported if m.startswith(("maieutic.tasks.aura", "maieutic.tasks.focus"))
    }


def test_every_task_is_listed_and_its_group_says_where_its_commands_are(cli):
    from maieutic.registry import task_modules

    top = cli("--help")
    for name in task_modules():
        assert f"  {name} " in top.out
        group = cli(name, "--help")
        assert group.code == 0, group.err
        assert f"maieutic evaluate {name}" in " ".join(group.out.split())


def _toy_groups() -> CommandGroups:
    top = RootGroup("maieutic")
    verbs = [TaskGroup(n) for n in ("generate", "evaluate", "meta-eval", "train")]
    generate, evaluate, meta_eval, train = verbs
    groups = CommandGroups(
        root=top, generate=generate, evaluate=evaluate, meta_eval=meta_eval, train=train
    )
    top.tree = groups
    for group in verbs:
        top.add_command(group)
        group.tree = groups
    return groups


def test_a_new_task_gets_its_commands_through_the_hook_alone(monkeypatch, tmp_path):
    from maieutic import registry
    from maieutic.cli import COMMAND_HOOKS

    (tmp_path / "toy_cli_task.py").write_text(
        "import click\n"
        "from maieutic.cli import COMMAND_HOOKS\n"
        "from maieutic.core import Task\n"
        "from maieutic.registry import register\n\n"
        "@click.command('toy')\n"
        "def evaluate_toy():\n"
        "    click.echo('toy evaluated')\n\n"
        "@click.group('toy')\n"
        "def toy():\n"
        "    'Toy tools.'\n\n"
        "@toy.command('count')\n"
        "def count():\n"
        "    click.echo('3')\n\n"
        "def commands(groups):\n"
        "    groups.evaluate.add_command(evaluate_toy)\n"
        "    groups.root.add_command(toy)\n\n"
        "@register('task', task='toy', name='toy')\n"
        "def task():\n"
        "    return Task(\n"
        "        name='toy', description='a toy', load_reference=str, load_submission=str\n"
        "    )\n\n"
        "COMMAND_HOOKS.add('toy', commands)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_ENTRIES", dict(registry._ENTRIES))
    monkeypatch.setitem(registry.task_modules(), "toy", "toy_cli_task")
    monkeypatch.setattr(COMMAND_HOOKS, "_entries", dict(COMMAND_HOOKS._entries))
    groups = _toy_groups()
    runner = CliRunner()
    assert "toy" in runner.invoke(groups.root, ["--help"]).output
    assert "toy_cli_task" not in sys.modules  # listed by name, not imported
    assert runner.invoke(groups.root, ["evaluate", "toy"]).output == "toy evaluated\n"
    assert runner.invoke(groups.root, ["toy", "count"]).output == "3\n"
    assert groups.mounted["toy"] == ["toy", "evaluate toy"]
    assert "maieutic evaluate toy" in runner.invoke(groups.root, ["toy", "--help"]).output


# -- one meaning per option name ------------------------------------------------------------


COMMANDS = [(p, c) for p, c in walk()] + [("", root)]


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[p or "maieutic" for p, _ in COMMANDS])
def test_every_option_means_what_the_table_says(path, command):
    visible = {o for p in _options(command) if not p.hidden for o in p.opts}
    for param in _options(command):
        if isinstance(param, DeprecatedAlias):
            assert param.replacement in visible, f"maieutic {path}: {param.opts[0]}"
            continue
        assert not param.hidden, f"maieutic {path}: hidden {param.opts[0]} is no alias"
        assert not disagreements(param), f"maieutic {path}: {disagreements(param)}"


def test_the_table_has_no_option_that_no_command_takes_and_docs_show_it():
    used = {o for _, c in COMMANDS for p in _options(c) for o in p.opts}
    assert set(MEANINGS) <= used, set(MEANINGS) - used
    page = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    missing = [name for name in MEANINGS if f"`{name}`" not in page]
    assert not missing, missing


def test_an_option_outside_the_table_is_caught():
    @click.command()
    @click.option("--model", help="x")
    @click.option("--out", type=click.Path(file_okay=False), help="x")
    def made_up(model, out):
        """A command with two bad options."""

    model, out = _options(made_up)
    assert disagreements(model) == ["--model is not in the table of option meanings"]
    assert "--out takes a directory" in disagreements(out)[0]


# -- old spellings keep working ---------------------------------------------------------


def test_a_deprecated_alias_feeds_the_new_option_with_a_warning():
    @click.command()
    @click.option("--out-dir", "out_dir", help="x")
    @deprecated_alias("--out", new="--out-dir", dest="out_dir", required=True)
    def made_up(out_dir):
        click.echo(f"out_dir={out_dir}")

    runner = CliRunner()
    old = runner.invoke(made_up, ["--out", "d"])
    assert old.exit_code == 0 and "out_dir=d" in old.output
    assert "warning: --out is deprecated: use --out-dir" in old.output
    assert runner.invoke(made_up, ["--out-dir", "d"]).output == "out_dir=d\n"
    both = runner.invoke(made_up, ["--out", "d", "--out-dir", "e"])
    assert both.exit_code == 2 and "give --out-dir only" in both.output
    neither = runner.invoke(made_up, [])
    assert neither.exit_code == 2 and "Missing option '--out-dir'" in neither.output
    assert "--out " not in runner.invoke(made_up, ["--help"]).output  # hidden


DATASET = {
    "A_1": {
        "intervention_id": "A_1",
        "intervention": "We should do X because Y.",
        "cqs": [{"id": "r0", "cq": "Does Y really lead to X?", "label": "Useful"}],
    }
}
SUBMISSION = {
    "A_1": {"intervention_id": "A_1", "cqs": [{"id": 0, "cq": "Does Y truly lead to X?"}]}
}


def test_renamed_options_of_real_commands_keep_their_old_spelling(cli, tmp_path):
    data = write_json(tmp_path / "d.json", DATASET)
    sub = write_json(tmp_path / "s.json", SUBMISSION)
    old = cli("evaluate", "cqs", "--data", data, sub, "--evaluator", "chrf",
              "--official-out", tmp_path / "official")  # fmt: skip
    assert old.code == 0, old.err
    assert "--official-out is deprecated: use --official-dir" in old.err
    assert len(list((tmp_path / "official").iterdir())) == 1
    # the examples file of the rubric judge is --shots-from; a file given to --shots
    # (its old meaning) still reaches it, and is then refused for the rules as before
    shots = write_json(tmp_path / "shots.json", [])
    answers = write_json(tmp_path / "a_scenario_1.json", [])
    result = cli("evaluate", "compqa", answers, "--shots", shots)
    assert "--shots FILE is deprecated: use --shots-from FILE" in result.err
    assert result.code == 2 and "--shots-from does not apply to the evaluator 'rules'" in result.err
    result = cli("evaluate", "compqa", answers, "--n-shots", "3")
    assert "--n-shots is deprecated: use --shots" in result.err
    assert result.code == 2 and "--shots does not apply to the evaluator 'rules'" in result.err


def test_train_scorer_is_the_old_spelling_of_train_task(cli, tmp_path):
    result = cli("train", "scorer", "--task", "nope", "--out", tmp_path)
    assert result.code == 2 and "no task 'nope' trains a scorer" in result.err
    data = write_json(tmp_path / "d.json", DATASET)
    schemes = tmp_path / "schemes.jsonl"
    schemes.write_text("")
    result = cli("train", "scorer", "--task", "cqs", "--data", data, "--schemes", schemes,
                 "--out", tmp_path / "x")  # fmt: skip
    assert "`train scorer --task cqs` is deprecated: use `maieutic train cqs`" in result.err
    assert result.code == 2 and "go with --examples templates" in result.err


# -- figures are SVG ------------------------------------------------------------------------


def test_plots_are_standalone_svg_files(tmp_path):
    from maieutic.report.plots import heatmap, sweep_plot

    rows = [
        {"threshold": t, "kappa_nae_kept": k, "kappa_nae_dropped": 0.5, "nae_rate": 0.2}
        for t, k in ((0.5, 0.3), (0.6, 0.4), (0.7, None))
    ]
    sweep_plot(rows, 0.6, tmp_path / "sweep.svg", title="sts: agreement by threshold")
    heatmap(["a", "b"], [[1.0, 0.5], [0.5, None]], tmp_path / "kappa.svg", title="κ")
    for name in ("sweep.svg", "kappa.svg"):
        tree = ET.parse(tmp_path / name).getroot()
        assert tree.tag == "{http://www.w3.org/2000/svg}svg"
        assert tree.find("{http://www.w3.org/2000/svg}style") is not None
    assert "chosen 0.6" in (tmp_path / "sweep.svg").read_text()


def test_matplotlib_is_no_dependency():
    pyproject = (REPO / "pyproject.toml").read_text()
    dependencies = pyproject.split("dependencies = [", 1)[1].split("]", 1)[0]
    assert "matplotlib" not in dependencies
    sources = (REPO / "src").rglob("*.py")
    assert not [p for p in sources if "import matplotlib" in p.read_text(encoding="utf-8")]


def test_the_groups_handed_to_a_hook_are_the_command_lines():
    from maieutic.cli.main import TREE

    assert TREE.root is root
    assert [g.name for g in (TREE.generate, TREE.evaluate, TREE.meta_eval, TREE.train)] == [
        "generate",
        "evaluate",
        "meta-eval",
        "train",
    ]
    assert {p for p, _ in leaves()} >= {"evaluate cqs", "generate focus", "aura compare"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (("focus", "agreement"), ("meta-eval", "focus-humans")),
        (("aura", "agree"), ("meta-eval", "aura-preferences")),
        (("compqa", "agree"), ("meta-eval", "compqa")),
    ],
)
def test_agreement_commands_moved_to_meta_eval_keep_their_old_place(cli, tmp_path, old, new):
    """Every agreement-with-people command is under meta-eval; the old place is hidden,
    warns, and runs the same command (here: its same usage error)."""
    missing = str(tmp_path / "absent.jsonl")
    args = {
        "focus": ["--gold", missing],
        "aura": [missing],
        "compqa": ["--judged", missing],
    }[old[0]]
    moved, current = cli(*old, *args), cli(*new, *args)
    assert moved.code == current.code == 2
    assert f"deprecated: use `maieutic {' '.join(new)}`" in moved.err
    assert "deprecated" not in current.err
    assert old[1] not in cli(old[0], "--help").out.split("Commands:")[1]
    assert new[1] in cli("meta-eval", "--help").out


def test_only_learned_models_are_called_scorers():
    """A "scorer" is a learned model (docs/cli.md, "Words with one meaning"): no other
    class is named so (the old names survive only as plain aliases)."""
    import ast

    src = Path(__file__).resolve().parents[1] / "src" / "maieutic"
    classes = {
        node.name
        for path in src.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ClassDef) and "Scorer" in node.name
    }
    assert classes == {"LearnedScorer", "ScorerManifest", "ScorerMatcher", "RegisteredOrScorer"}
