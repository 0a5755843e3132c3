"""Judge replies in every form real models produce, and every broken score dictionary
of the released GPT-3.5 few-shot judgements through the same checks."""

from __future__ import annotations

import json

import pytest

from maieutic.tasks.compqa.reply_parsing import parse_scores
from tests.conftest import SHARED_DATA

FULL = {str(i): 1 for i in range(1, 16)}


@pytest.mark.parametrize(
    "reply",
    [
        json.dumps(FULL),
        "Here are my scores:\n```json\n" + json.dumps(FULL) + "\n```\nThe total is 15.",
        str({int(k): v for k, v in FULL.items()}),  # a Python dict with int keys
        "{" + ", ".join(f"{k}: {v}" for k, v in FULL.items()) + ",}",  # bare keys, trailing comma
        "{" + ", ".join(f"'C{k}': {v}" for k, v in FULL.items()) + "}",
        "\n".join(f"{k}: {v}" for k, v in FULL.items()) + "\nTotal: 15",
        "\n".join(f"Criterion {k} - {v}" for k, v in FULL.items()),
        json.dumps({**FULL, "total": 19}),  # a model's own total is ignored
    ],
)
def test_reply_forms(reply):
    check = parse_scores(reply)
    assert check is not None and check.complete and check.total == 15 and not check.problems


def test_prose_and_broken_replies():
    assert parse_scores("The answer is well written and deserves a high score.") is None
    partial = parse_scores('{"15": 0}')
    assert partial.total is None and len(partial.problems) == 14
    # a reply cut at the token limit: its complete pairs, the rest missing
    cut = parse_scores(
        '{"2":1, "3":0, "4":1, "5":2, "6":1, "7":1, "8":1, "9":1, "10":1, "11":1, "12":1,'
    )
    assert cut.scores == {2: 1, 3: 0, 4: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1, 12: 1}
    assert {p[:2] for p in cut.problems} == {
        ("C5", "out-of-range"), ("C1", "missing"), ("C13", "missing"), ("C14", "missing"),
        ("C15", "missing"),
    }  # fmt: skip
    assert parse_scores("`https://example.com/1:1:2:3:12:48`") is None  # no object
    wrong = parse_scores(json.dumps({**FULL, "7": 3}))
    assert wrong.total is None and ("C7", "out-of-range", "score 3 outside 0–1") in wrong.problems


def test_every_released_broken_record_is_reported():
    folder = SHARED_DATA / "compqa" / "judged" / "gpt-3.5-fewshot"
    if not folder.exists():
        pytest.skip(f"shared data not found at {folder}")
    reported = 0
    for path in sorted(folder.glob("*.json")):
        for record in json.loads(path.read_text()):
            check = parse_scores(json.dumps(record["score_dict"]))
            if check is None or check.problems:
                reported += 1
            if check is not None and not check.complete:
                assert check.total is None  # never a misleading total
    assert reported == 51 + 14  # broken key sets, and 2s on 1-point criteria
