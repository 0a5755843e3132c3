"""``ask`` and hostile text: zero-width characters are no text, and terminal escape
sequences in the text, in what a model writes, in file names or warnings never reach
the terminal (newlines and tabs do)."""

from __future__ import annotations

import json

import pytest

import maieutic.ask
from maieutic.ask import pipeline
from maieutic.ask.options import Part
from maieutic.ask.pipeline import AskResult, ask_text
from maieutic.ask.render import print_terminal, to_json, to_markdown
from maieutic.errors import DataError
from maieutic.terminal_text import has_visible_text, terminal_safe

OSC_TITLE = "\x1b]0;PWNED\x07"
CLEAR = "\x1b[2J\x1b[H"
RED = "\x1b[31m"
HOSTILE = f"We should ban {OSC_TITLE}cars{CLEAR} because {RED}pollution\x1b[0m harms children."
CLEAN = "We should ban cars because pollution harms children."


def _no_escapes(output: str) -> None:
    assert "\x1b" not in output and "\x9b" not in output and "\x07" not in output
    assert "PWNED" not in output and "[2J" not in output and "[31m" not in output


@pytest.mark.parametrize(
    "text", ["\u200b", "\u200b\u200c\u200d\u2060", "\ufeff\u200b", " \u200b \u00a0\u200e ",
             "\x1b[2J", OSC_TITLE + "\u200b"],
)  # fmt: skip
def test_text_with_nothing_visible_is_refused_as_empty(cli, text):
    result = cli("ask", text)
    assert result.code == 2
    lines = [line for line in result.err.splitlines() if line.strip()]
    assert len(lines) == 1 and "the text is empty" in lines[0] and "Traceback" not in result.err


def test_visible_text_with_zero_width_characters_is_text():
    assert has_visible_text("ban\u200bcars")
    assert not has_visible_text("\u200b\u2063\ufeff\u3000")


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        (HOSTILE, CLEAN),
        ("a\tb\nc", "a\tb\nc"),  # tabs and newlines stay
        ("line one\r\nline two\rthree", "line one\nline two\nthree"),
        ("bell\x07 back\x08space\x7f del", "bell backspace del"),
        ("8-bit \x9b2J csi and \x9d0;title\x9c osc", "8-bit  csi and  osc"),
        ("unended \x1b]0;title\nnext line", "unended \nnext line"),  # to the line end only
        ("dcs \x1bPq#0;2;0;0;0\x1b\\ done", "dcs  done"),
        ("lone \x1b", "lone "),
        ("ünïcödé, 中文, עברית", "ünïcödé, 中文, עברית"),
    ],
)
def test_terminal_safe(raw, safe):
    assert terminal_safe(raw) == safe
    assert terminal_safe(terminal_safe(raw)) == terminal_safe(raw)


def test_the_pipeline_cleans_the_text_and_says_so(monkeypatch):
    seen = []

    def nothing(text, options):
        seen.append(text)
        return Part(questions=[], signature="sig", origin="offline")

    monkeypatch.setattr(pipeline, "critical_questions", nothing)
    monkeypatch.setattr(pipeline, "socratic_questions", nothing)
    result = ask_text(HOSTILE)
    assert result.text == CLEAN and seen == [CLEAN, CLEAN]  # every part reads the clean text
    assert any("escape sequences" in w for w in result.warnings)
    with pytest.raises(DataError, match="the text is empty"):
        ask_text("\u200b\u200b")


def _hostile_result() -> AskResult:
    """A result as a model might fill it: escapes in every string ask prints."""
    return AskResult(
        text=CLEAN,
        source=f"essay{OSC_TITLE}.md",
        cqs=[{"question": f"Why {CLEAR}ban cars?", "schemes": []}],
        focus=[
            {
                "type": "T",
                "type_name": f"Type{RED}",
                "span": "ban cars",
                "start": 14,
                "end": 22,
                "question": f"What {OSC_TITLE}is assumed?",
            }
        ],
        signatures={"cqs": "task:cqs"},
        warnings=[f"a warning {CLEAR}"],
    )


def test_every_view_is_safe():
    from io import StringIO

    from rich.console import Console

    buffer = StringIO()
    print_terminal(_hostile_result(), Console(file=buffer, force_terminal=False, width=100))
    _no_escapes(buffer.getvalue())
    assert "Why ban cars?" in buffer.getvalue()
    _no_escapes(to_markdown(_hostile_result()))
    _no_escapes(to_json(_hostile_result()))
    assert "\\u001b" not in to_json(_hostile_result())
    shown = json.loads(to_json(_hostile_result()))
    assert shown["cqs"][0]["question"] == "Why ban cars?" and shown["focus"][0]["start"] == 14


@pytest.mark.parametrize("output_format", ["terminal", "markdown", "json"])
def test_the_command_prints_nothing_that_drives_the_terminal(cli, monkeypatch, output_format):
    def hostile(text, options=None, source="<argument>", on_step=None):
        result = _hostile_result()
        result.failures = [f"critical questions: model said {OSC_TITLE}no"]
        return result

    monkeypatch.setattr(maieutic.ask, "ask_text", hostile)
    result = cli("ask", CLEAN, "--format", output_format)
    assert result.code == 1  # the failure is reported, after everything is printed
    _no_escapes(result.out)
    assert "\\u001b" not in result.out
    _no_escapes(result.err)
    assert "model said no" in result.err


@pytest.mark.slow
def test_a_hostile_text_end_to_end(cli):
    result = cli("ask", HOSTILE, "--format", "markdown")
    assert result.code == 0, result.err
    _no_escapes(result.out + result.err)
    assert "pollution harms children" in result.out and "escape sequences" in result.err
