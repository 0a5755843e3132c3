"""Help and messages say what each command does in its own terms: ``--strict`` names
what that command refuses, every ``--evaluator`` offers a learned scorer as
``scorer:DIR``, a task group's help names each of its tools, counts agree in number,
and every command's help shows an example."""

from __future__ import annotations

import shlex

import click
import pytest

from maieutic.cli.main import cli as root
from maieutic.samples import sample_path
from tests.cli_commands import walk


def _help(*path: str) -> str:
    ctx = click.Context(root, info_name="maieutic")
    command: click.Command = root
    for name in path:
        assert isinstance(command, click.Group)
        command = command.get_command(ctx, name)
        ctx = click.Context(command, info_name=name, parent=ctx)
    return " ".join(command.get_help(ctx).split())


@pytest.mark.parametrize(
    ("path", "refused"),
    [
        (("generate", "compqa"), "a question asked twice, or a question without arguments"),
        (("evaluate", "aura"), "a line of a question set that is not a question"),
        (("evaluate", "focus"), "a span with no type, a type with no span"),
        (("evaluate", "compqa"), "an empty answer, one over 12,000 characters"),
        (("evaluate", "cqs"), "an intervention without 3 questions"),
    ],
)
def test_strict_says_what_this_command_refuses(path, refused):
    text = _help(*path)
    assert f"--strict Refuse (exit 2) {refused}" in text
    assert "repeated ids" not in text


def test_cqs_compare_takes_a_scorer_as_scorer_dir(cli, tmp_path):
    assert "scorer:DIR" in _help("meta-eval", "cqs-compare")
    data, submission = (
        sample_path("cqs/sample_dataset.json"),
        sample_path("cqs/sample_submission.json"),
    )
    missing = tmp_path / "no-scorer"
    given = ["meta-eval", "cqs-compare", "--data", data, submission, "--evaluator", "chrf"]
    # a scorer's folder is read (and its absence reported), not refused as a choice
    result = cli(*given, "--evaluator", f"scorer:{missing}")
    assert result.code == 2 and str(missing) in result.err, result.err
    assert "invalid choice" not in result.err.lower()
    bare = cli(*given, "--evaluator", "scorer")
    assert bare.code == 2 and "scorer:DIR" in bare.err


def test_a_task_group_help_names_each_of_its_tools():
    ctx = click.Context(root, info_name="maieutic")
    for name in ("aura", "compqa", "cqs", "focus"):
        group = root.get_command(ctx, name)
        group_ctx = click.Context(group, info_name=name, parent=ctx)
        tools = [
            tool
            for tool in group.list_commands(group_ctx)
            if not (group.get_command(group_ctx, tool).help or "").startswith("Deprecated")
        ]
        summary = group.help.split("\n\n")[0]
        missing = [tool for tool in tools if tool not in summary]
        assert not missing, f"maieutic {name} --help: the summary does not name {missing}"


def test_the_report_counts_one_input_file_in_the_singular(cli, tmp_path):
    results = tmp_path / "results.json"
    data, submission = (
        sample_path("cqs/sample_dataset.json"),
        sample_path("cqs/sample_submission.json"),
    )
    assert (
        cli(
            "evaluate", "cqs", "--data", data, submission, "--evaluator", "chrf", "--out", results
        ).code
        == 0
    )
    report = cli("report", results, "--out", tmp_path / "report.html")
    assert report.code == 0, report.err
    assert "(1 input file)" in report.err


LISTINGS = {"generate", "evaluate", "meta-eval", "train", "cqs"}
"""Groups whose help is the list of their commands (each of which has an example)."""


def _examples() -> list[tuple[str, click.Command, str | None]]:
    found = []
    for path, command in walk():
        if isinstance(command, click.Group) and path in LISTINGS:
            continue
        if (command.help or "").startswith("Deprecated"):
            continue  # its help names the command that replaced it
        text = command.get_help(click.Context(command, info_name=path)).split("Options:")[0]
        lines = [line.strip() for line in text.splitlines()]
        # the line after "Example:", or the first of an example block written out
        after = lines[lines.index("Example:") + 1 :] if "Example:" in lines else lines
        example = next((line for line in after if line.startswith(f"maieutic {path}")), None)
        found.append((path, command, example))
    return found


def test_every_command_help_shows_an_example():
    missing = [path for path, _, example in _examples() if example is None]
    assert not missing, f"no example in the help of: {', '.join(missing)}"


def test_every_example_is_a_command_line_the_command_accepts():
    for path, _, example in _examples():
        if example is None:
            continue
        words = shlex.split(example.split("  #")[0])[1:]
        command, ctx = root, click.Context(root, info_name="maieutic")
        while isinstance(command, click.Group) and words and words[0] in command.list_commands(ctx):
            command = command.get_command(ctx, words.pop(0))
            ctx = click.Context(command, info_name=command.name, parent=ctx)
        assert not isinstance(command, click.Group), f"{path}: {example!r} runs no command"
        try:
            command.make_context(command.name, words, parent=ctx.parent)
        except click.UsageError as exc:
            if isinstance(exc, click.BadParameter) and "does not exist" in exc.format_message():
                continue  # an input file the example names: parsed up to there, and right
            raise AssertionError(f"{path}: {example!r}: {exc.format_message()}") from None
