"""Limits set through the environment: a number is used as given, anything else is one
line naming the variable (exit 2), never a traceback or another limit."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from maieutic.env_numbers import env_number
from maieutic.errors import DataError


def test_an_unset_or_empty_variable_gives_the_default(monkeypatch):
    monkeypatch.delenv("MAIEUTIC_T", raising=False)
    assert env_number("MAIEUTIC_T", 500) == 500
    monkeypatch.setenv("MAIEUTIC_T", "")
    assert env_number("MAIEUTIC_T", 500) == 500


@pytest.mark.parametrize("raw", [" ", "  ", "\t", "\n"])
def test_a_variable_set_to_blanks_is_refused_not_taken_for_unset(monkeypatch, raw):
    monkeypatch.setenv("MAIEUTIC_T", raw)
    with pytest.raises(DataError) as caught:
        env_number("MAIEUTIC_T", 2_000_000)
    assert str(caught.value) == f"MAIEUTIC_T={raw!r} is blank (unset it for 2,000,000)"


@pytest.mark.parametrize(
    ("raw", "whole", "value"),
    [("750", True, 750), (" 1e6 ", True, 1_000_000), ("2.5", False, 2.5), ("0", False, 0.0)],
)
def test_a_number_is_used_as_given(monkeypatch, raw, whole, value):
    monkeypatch.setenv("MAIEUTIC_T", raw)
    got = env_number("MAIEUTIC_T", 500, whole=whole, least=0)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(
    ("raw", "whole", "said"),
    [
        ("abc", True, "MAIEUTIC_T='abc' is not a whole number (unset it for 2,000,000)"),
        ("2.5", True, "MAIEUTIC_T='2.5' is not a whole number (unset it for 2,000,000)"),
        ("nan", False, "MAIEUTIC_T='nan' is not a number (unset it for 2,000,000)"),
        ("inf", False, "MAIEUTIC_T='inf' is not a number (unset it for 2,000,000)"),
        ("0", True, "MAIEUTIC_T='0' must be at least 1 (unset it for 2,000,000)"),
        ("-5", False, "MAIEUTIC_T='-5' must be at least 1 (unset it for 2,000,000)"),
    ],
)
def test_anything_else_is_refused_naming_the_variable(monkeypatch, raw, whole, said):
    monkeypatch.setenv("MAIEUTIC_T", raw)
    with pytest.raises(DataError) as caught:
        env_number("MAIEUTIC_T", 2_000_000, whole=whole)
    assert str(caught.value) == said


@pytest.mark.parametrize(
    ("variable", "argv"),
    [
        ("MAIEUTIC_ASK_MAX_CHARS", ["ask", "ARGUMENT.txt"]),
        ("MAIEUTIC_PDF_MAX_PAGES", ["ask", "ARGUMENT.txt"]),
        ("MAIEUTIC_PDF_MAX_CONTENT_MB", ["ask", "ARGUMENT.txt"]),
        ("MAIEUTIC_PROGRESS_INTERVAL", ["ask", "ARGUMENT.txt"]),
        ("MAIEUTIC_AURA_MAX_CHARS", ["ask", "ARGUMENT.txt"]),
        ("MAIEUTIC_MAX_INPUT_BYTES", ["report", "ARGUMENT.txt", "--out", "r.html"]),
    ],
)
def test_a_command_given_a_bad_limit_says_so_in_one_line(tmp_path, variable, argv):
    (tmp_path / "ARGUMENT.txt").write_text("We must act now, because costs rose.\n")
    env = {**os.environ, variable: "lots", "MAIEUTIC_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "maieutic", *argv],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"maieutic: error: {variable}='lots' is not a")
    assert "number (unset it for " in line and "Traceback" not in done.stderr
    assert not (tmp_path / "r.html").exists()
