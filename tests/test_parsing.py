"""Parsing model output into questions."""

from __future__ import annotations

import pytest

from maieutic.generate.parsing import parse_questions

CASES = [
    (
        "1. Is X true?\n2. Why does Y follow?\n3. Who says Z?",
        ["Is X true?", "Why does Y follow?", "Who says Z?"],
    ),
    (
        "- **Is the data complete?**\n* \"Could bias explain it?\"\n• 'Who funded the study?'",
        ["Is the data complete?", "Could bias explain it?", "Who funded the study?"],
    ),
    (
        "Here are three critical questions:\n\n"
        "Question 1: Is it legal to do so?\nQ2. Does it work well?",
        ["Is it legal to do so?", "Does it work well?"],
    ),
    (
        "<think>Maybe ask: is it fair?</think>\nIs the tax fair to everyone?",
        ["Is the tax fair to everyone?"],
    ),
    ("<think>the model never stops thinking. Is this a question?", []),
    (
        "Is A the cause of B? Could C explain B instead? What about D in this case?",
        ["Is A the cause of B?", "Could C explain B instead?", "What about D in this case?"],
    ),
    (
        "Sure! 1. Is it true that prices fell? 2. Who benefits from the change?",
        ["Is it true that prices fell?", "Who benefits from the change?"],
    ),
    (
        "Did the U.S. economy grow in 2016? This matters. Why does it matter here?",
        ["Did the U.S. economy grow in 2016?", "Why does it matter here?"],
    ),
    ("1. Why is that so? It is unclear because of X.\n2. why is that so?", ["Why is that so?"]),
    ("These are good points to consider.\nNo questions here.", []),
    ("Why?\nIs it? \nWhat evidence is there for this?", ["What evidence is there for this?"]),
]


@pytest.mark.parametrize(("reply", "expected"), CASES)
def test_parse_questions(reply, expected):
    assert parse_questions(reply) == expected


def test_whole_items_keep_a_listed_items_questions_together_and_split_a_plain_line():
    reply = "1. Why are banks wary of it? Is it only their balance sheets?\n" \
        "Is this fair to savers? Would rates rise then?"  # fmt: skip
    assert parse_questions(reply, whole_items=True) == [
        "Why are banks wary of it? Is it only their balance sheets?",
        "Is this fair to savers?",
        "Would rates rise then?",
    ]
    assert len(parse_questions(reply)) == 4  # the benchmark's llm generator splits them all
