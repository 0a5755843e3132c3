"""SFT export: answers at or above a rubric total, as chat records; incomplete scores
never exported; the released GPT-4 judgements counted independently."""

from __future__ import annotations

import json

import pytest

from maieutic.tasks.compqa.data import Answer, check_scores
from maieutic.tasks.compqa.sft import sft_records
from tests.conftest import SHARED_DATA

MAXIMA = {
    1: 1,
    2: 1,
    3: 1,
    4: 1,
    5: 1,
    6: 1,
    7: 1,
    8: 1,
    9: 2,
    10: 2,
    11: 2,
    12: 2,
    13: 1,
    14: 1,
    15: 1,
}


def _answer(text, scores, aspect=""):
    return Answer(
        object1="tea",
        object2="coffee",
        aspect=aspect,
        comparison=text,
        generator="g",
        scenario="1",
        check=check_scores(scores),
    )


def test_threshold_incomplete_and_repeats():
    full = {str(c): m for c, m in MAXIMA.items()}  # 19
    low = {**full, "9": 0, "10": 0}  # 15
    answers = [
        _answer("Best.", full, "taste"),
        _answer("Best.", full, "taste"),  # the same pair again
        _answer("Low.", low),
        _answer("Partial.", {"15": 1}),
        _answer("Stored total only.", {**full, "16": 5, "1": 3}),  # out of range: incomplete
    ]
    export = sft_records(answers, 18)
    assert export.counts() == {
        "exported": 1,
        "below threshold": 1,
        "incomplete scores": 2,
        "empty answers": 0,
        "repeated pairs": 1,
    }
    [record] = export.records
    assert record["messages"] == [
        {"role": "user", "content": "What is better taste: tea or coffee?"},
        {"role": "assistant", "content": "Best."},
    ]
    assert record["metadata"]["score"] == 19
    assert len(sft_records(answers, 15).records) == 2


def _independent_count(folder):
    keys = {str(c) for c in MAXIMA}
    pairs = set()
    for path in sorted(folder.glob("*.json")):
        for x in json.loads(path.read_text()):
            d = x.get("score_dict")
            if not isinstance(d, dict) or set(d) != keys:
                continue
            if not all(0 <= float(d[str(c)]) <= m for c, m in MAXIMA.items()):
                continue
            if sum(float(v) for v in d.values()) >= 18 and x["comparison"].strip():
                aspect = f" {x['aspect']}" if x["aspect"] else ""
                question = f"What is better{aspect}: {x['object1']} or {x['object2']}?"
                pairs.add((question, x["comparison"]))
    return len(pairs)


def test_export_from_the_released_gpt4_judgements(cli, tmp_path):
    folder = SHARED_DATA / "compqa" / "judged" / "gpt-4"
    if not folder.exists():
        pytest.skip(f"shared data not found at {folder}")
    out = tmp_path / "sft.jsonl"
    result = cli("compqa", "export-sft", "--judged", folder, "--out", out)
    assert result.code == 0, result.err
    lines = out.read_text().splitlines()
    assert len(lines) == _independent_count(folder)
    assert all(json.loads(line)["metadata"]["score"] >= 18 for line in lines)
