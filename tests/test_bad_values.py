"""Values no command can use are refused with one line (exit 2) where they are given:
NaN or an infinite number for any float option (a NaN limit or an infinite one is no
limit), an empty path, a variable set to blanks, a ``--judge`` column that names no
judge, mixes a judge with people, or holds answers nobody scored."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from maieutic.cli.option_meanings import NUMBER, kind_of
from maieutic.cli.option_types import FiniteFloat, FiniteFloatRange
from tests.cli_commands import leaves
from tests.hardening.valid_files import write_files

REPO = Path(__file__).resolve().parents[1]


def float_options() -> list[tuple[str, click.Option]]:
    """Every float option of every command (hidden ones too)."""
    return [
        (path, param)
        for path, command in leaves()
        for param in command.params
        if isinstance(param, click.Option) and kind_of(param) == NUMBER
    ]


def test_the_tree_has_float_options():
    assert len({p.opts[0] for _, p in float_options()}) >= 12


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "Infinity", "1e999"])
def test_every_float_option_refuses_what_is_not_a_finite_number(value):
    accepted = []
    for path, param in float_options():
        if getattr(param.type, "infinite", False) and "nan" not in value.lower():
            continue
        try:
            param.type.convert(value, param, None)
        except click.BadParameter as exc:
            assert "not a finite number" in exc.message or "not in the range" in exc.message
        else:
            accepted.append(f"{path} {param.opts[0]}")
    assert not accepted, f"accepted {value!r}: {accepted}"


@pytest.mark.parametrize("value", ["1_0", "0_6", "1_000.5"])
def test_every_float_option_refuses_digit_separators(value):
    # Python's float() reads "1_0" as 10: a typo for 1.0 would run at ten
    accepted = []
    for path, param in float_options():
        try:
            param.type.convert(value, param, None)
        except click.BadParameter as exc:
            assert "no '_' in numbers" in exc.message
        else:
            accepted.append(f"{path} {param.opts[0]}")
    assert not accepted, f"accepted {value!r}: {accepted}"


def test_every_float_option_is_of_the_one_type():
    # a new option made with click.FLOAT or click.FloatRange would accept NaN
    others = [
        f"{path} {param.opts[0]}: {type(param.type).__name__}"
        for path, param in float_options()
        if not isinstance(param.type, FiniteFloat | FiniteFloatRange)
    ]
    assert not others, "use maieutic.cli.option_types.number(): " + "; ".join(others)


@pytest.mark.parametrize(
    "option", ["--header-timeout", "--job-seconds", "--max-upload-mb", "--job-seconds=inf"]
)
def test_a_server_is_not_started_without_a_limit(tmp_path, option):
    # in a process of its own: a server that starts anyway must not hang the test run
    argv = [option] if "=" in option else [option, "nan"]
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "MAIEUTIC_HOME": str(tmp_path)}
    try:
        done = subprocess.run(
            [sys.executable, "-m", "maieutic", "serve", "--port", "0", *argv],
            capture_output=True, text=True, env=env, timeout=60,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve {' '.join(argv)} started a server")
    assert done.returncode == 2 and "is not a finite number" in done.stderr, done.stderr


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "cqs", "--data", "@cqs_data.json", "--outputs", "@cqs_outputs.json",
         "--out-dir", "@scorer", "--c", "nan"],
        ["train", "cqs", "--data", "@cqs_data.json", "--outputs", "@cqs_outputs.json",
         "--out-dir", "@scorer", "--c", "inf"],
        ["compqa", "extremes", "--judged", "@gpt4_scenario_1.json", "--humans", "@humans.tsv",
         "--high", "nan"],
        ["compqa", "extremes", "--judged", "@gpt4_scenario_1.json", "--humans", "@humans.tsv",
         "--low", "nan"],
        ["evaluate", "cqs", "--data", "@cqs_data.json", "@cqs_sub.json", "--timeout", "nan"],
        ["generate", "cqs", "--data", "@cqs_data.json", "--out", "@o.json", "--generator", "llm",
         "--temperature", "nan"],
        ["meta-eval", "cqs-compare", "--data", "@cqs_data.json", "--outputs",
         "@cqs_outputs.json", "--evaluator", "chrf", "--threshold", "chrf=nan"],
    ],
)  # fmt: skip
def test_a_value_that_is_no_number_is_one_line(cli, tmp_path, argv):
    write_files(tmp_path)
    result = cli(*[str(tmp_path / w[1:]) if w.startswith("@") else w for w in argv])
    assert result.code == 2 and "Traceback" not in result.err
    assert "is not a finite number" in result.err, result.err
    assert not (tmp_path / "scorer").exists() and not (tmp_path / "o.json").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["train", "cqs", "--data", "@cqs_data.json", "--outputs", "@cqs_outputs.json",
         "--out-dir", ""],
        ["cqs", "stats", "@cqs_data.json", "--out", ""],
        ["report", "", "--out", "@r.html"],
    ],
)  # fmt: skip
def test_an_empty_path_is_refused(cli, tmp_path, monkeypatch, argv):
    write_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    result = cli(*[str(tmp_path / w[1:]) if w.startswith("@") else w for w in argv])
    assert result.code == 2 and "an empty path names no file or folder" in result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_path_of_spaces_is_refused(cli, tmp_path, monkeypatch):
    write_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    result = cli("train", "cqs", "--data", tmp_path / "cqs_data.json", "--outputs",
                 tmp_path / "cqs_outputs.json", "--out-dir", " ")  # fmt: skip
    assert result.code == 2 and "a path of spaces alone names no file or folder" in result.err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


@pytest.mark.parametrize("option", ["--out", "--data"])
def test_a_name_that_is_no_utf8_text_is_refused_before_the_run(cli, tmp_path, option):
    """A file name holding a byte that is no UTF-8 character reaches Python as a lone
    surrogate: generation ran to its end and then lost everything writing the record
    that names its files."""
    write_files(tmp_path)
    odd = str(tmp_path / "a\udcff.json")
    paths = {"--data": tmp_path / "cqs_data.json", "--out": tmp_path / "out.json"}
    paths[option] = odd
    before = sorted(p.name for p in tmp_path.iterdir())
    result = cli("generate", "cqs", "--data", paths["--data"], "--out", paths["--out"])
    assert result.code == 2, result.err
    at = len(str(tmp_path)) + 2  # the character after "…/a"
    said = f"maieutic: error: {option}: not UTF-8 text (character {at} is a lone surrogate)"
    assert result.err.strip() == said
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_limit_set_to_blanks_is_refused(cli, tmp_path, monkeypatch):
    write_files(tmp_path)
    monkeypatch.setenv("MAIEUTIC_MAX_INPUT_BYTES", " ")
    result = cli("cqs", "stats", tmp_path / "cqs_data.json")
    assert result.code == 2
    assert result.err.strip() == (
        "maieutic: error: MAIEUTIC_MAX_INPUT_BYTES=' ' is blank (unset it for 1,073,741,824)"
    )


def _breakdown(cli, tmp_path: Path, *columns: str):
    write_files(tmp_path)
    raw = json.loads((tmp_path / "gpt4_scenario_1.json").read_text())
    for answer in raw:
        answer.pop("score_dict"), answer.pop("score", None)
    (tmp_path / "raw_scenario_1.json").write_text(json.dumps(raw))
    words = [c.replace("@", f"{tmp_path}/") for c in columns]
    return cli("compqa", "breakdown", *[w for c in words for w in ("--judge", c)])


def test_a_judge_column_without_a_name_is_refused(cli, tmp_path):
    result = _breakdown(cli, tmp_path, "@gpt4_scenario_1.json")
    assert result.code == 2 and "expected NAME=PATH" in result.err


def test_a_judge_column_mixing_a_judge_and_people_is_refused(cli, tmp_path):
    result = _breakdown(cli, tmp_path, "j=@gpt4_scenario_1.json", "j=@humans.tsv")
    assert result.code == 2 and "Traceback" not in result.err
    assert "--judge j: mixes a judge's scored answers and people's score files" in result.err
    apart = _breakdown(cli, tmp_path, "j=@gpt4_scenario_1.json", "h=@humans.tsv")
    assert apart.code == 0, apart.err


def test_raw_answers_are_no_judge(cli, tmp_path):
    result = _breakdown(cli, tmp_path, "raw=@raw_scenario_1.json")
    assert result.code == 2 and "--judge raw: answers with no scores" in result.err
