"""The question parser's work grows linearly with the reply: a runaway reply of
100 KB without a "?" is parsed at once (it took minutes when a regex rescanned the
tail from every position), only the first ``MAX_REPLY_CHARS`` of the visible reply are
read, and the linear steps give exactly what the regexes they replace gave."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import textwrap

import pytest

from maieutic.generate.parsing import (
    MAX_REPLY_CHARS,
    _drop_closed_blocks,
    _question_spans,
    parse_questions,
)

PROSE = "The speaker assumes that the policy will work as intended in every case. "
LONG_REPLIES = {
    "16,000 words": "'word ' * 16_000",
    "100 KB reply": f"'1. Is the policy fair to everyone?\\n' + {PROSE!r} * 1400",
}


@pytest.mark.parametrize("name", LONG_REPLIES)
def test_a_long_reply_without_question_marks_is_parsed_at_once(name):
    # run in a child with a deadline (generous: the fix takes milliseconds, the
    # quadratic parser took 72 s and 114 s on these)
    code = textwrap.dedent(
        f"""
        from maieutic.generate.parsing import parse_questions
        print(parse_questions({LONG_REPLIES[name]}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=10, check=True
    )
    expected = "['Is the policy fair to everyone?']" if "KB" in name else "[]"
    assert done.stdout.strip() == expected


def test_only_the_first_chars_of_the_visible_reply_are_parsed():
    question = "Is this question within the limit?\n"
    reply = question * (MAX_REPLY_CHARS // len(question)) + "Is this one past the limit?\n"
    notes: list[str] = []
    assert parse_questions(reply, notes=notes) == ["Is this question within the limit?"]
    assert len(notes) == 1 and f"first {MAX_REPLY_CHARS:,}" in notes[0]
    # reasoning does not count: a long think block hides no question after it
    thinking = "<think>" + "hmm " * MAX_REPLY_CHARS + "</think>\n"
    notes.clear()
    assert parse_questions(thinking + "1. Why act now?", notes=notes) == ["Why act now?"]
    assert notes == []


def _random_texts(alphabet: list[str], n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(n)]


def test_question_spans_match_the_regex_they_replace():
    regex = re.compile(r"[^?]*?\?[\"'”’)\]]*")
    alphabet = ["a", " ", "?", "??", '"', "'", "”", "’", ")", "]", "(", "Why x", "é"]
    for line in _random_texts(alphabet, 5000, seed=1):
        assert list(_question_spans(line)) == [m.group(0) for m in regex.finditer(line)]


def test_dropping_reasoning_blocks_matches_the_regex_it_replaces():
    regex = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.IGNORECASE | re.DOTALL)
    alphabet = [
        "<think>", "</think>", "<THINK>", "</Think>", "<thinking>", "</thinking>",
        "<reasoning>", "</REASONING>", "<th\u0130nk>", "</thin\u212a>", "<", ">", "x", "?\n",
    ]  # fmt: skip
    for text in _random_texts(alphabet, 5000, seed=2):
        assert _drop_closed_blocks(text) == regex.sub(" ", text)
