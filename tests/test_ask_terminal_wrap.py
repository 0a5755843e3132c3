"""A question too long for the terminal wraps under itself (a hanging indent), not back
at column 0, so each numbered or labelled question reads as one item."""

from __future__ import annotations

ARGUMENT = "We should ban cars from the city centre because pollution causes asthma in children."


def test_long_questions_wrap_with_a_hanging_indent(cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "50")
    result = cli("ask", ARGUMENT)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    start = lines.index("Critical questions (offline claims generator)")
    body = lines[start + 1 : lines.index("Socratic questions (offline claims generator)")]
    assert body[0].startswith("  1. ") and len(body) > 3  # at 50 columns, questions wrap
    for line in body:
        assert line.startswith(("  1. ", "  2. ", "  3. ", "     ")), line
    socratic = lines[lines.index("Socratic questions (offline claims generator)") + 1 :]
    items = [line for line in socratic if line.startswith("  [")]
    assert items, result.out
    following = socratic[socratic.index(items[0]) + 1]
    assert following.startswith("     ") or following.startswith("  ["), following
