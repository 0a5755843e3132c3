"""CompQA rubric and released files: score dictionaries checked per criterion (every
broken form of the released GPT-3.5 few-shot judgements), totals computed, never
trusted, and generator/scenario read from file names."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from maieutic.errors import DataError
from maieutic.tasks.compqa.data import check_scores, generator_scenario, read_answers, rubric
from tests.conftest import SHARED_DATA

JUDGED = SHARED_DATA / "compqa" / "judged"


def test_rubric_groups_and_maxima():
    criteria = rubric()
    assert len(criteria) == 15 and sum(c.max for c in criteria.values()) == 19
    groups = Counter()
    for c in criteria.values():
        groups[c.group] += c.max
        assert len(c.points) == c.max + 1  # one description per possible score
    assert groups == {"structure": 7, "relevance": 5, "quality": 7}
    assert [n for n, c in criteria.items() if c.max == 2] == [9, 10, 11, 12]


def test_a_complete_dict_has_a_computed_total():
    scores = {str(i): 1 for i in range(1, 16)}
    check = check_scores(scores)
    assert check.complete and check.total == 15 and not check.problems
    assert check_scores({f"C{i}": 1 for i in range(1, 16)}).total == 15


@pytest.mark.parametrize(
    ("raw", "codes", "total"),
    [
        ({"15": 0}, ["missing"] * 14, None),
        ({str(i): 1 for i in range(16, 31)}, ["unknown-key"] * 15 + ["missing"] * 15, None),
        ({**{str(i): 1 for i in range(1, 15)}, "9": 3}, ["out-of-range", "missing"], None),
        ({**{str(i): 1 for i in range(1, 15)}, "15": "yes"}, ["not-a-number"], None),
        ("prose", ["not-a-dict"], None),
        # all fifteen valid and a stray key 16: reported, and the total is the fifteen's
        ({**{str(i): 1 for i in range(1, 16)}, "16": 2}, ["unknown-key"], 15),
    ],
)
def test_broken_dicts_are_reported_per_criterion(raw, codes, total):
    check = check_scores(raw)
    assert sorted(c for _, c, _ in check.problems) == sorted(codes)
    assert check.total == total


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("gpt4_scenario_3.json", ("gpt4", "3")),
        ("llama3-70b_scenario_1.json", ("llama3-70b", "1")),
        ("scored_gpt4_scenario_3_comparison", ("gpt4", "3")),
        ("scored_human_summaries", ("human", "human")),
        ("cam.json", ("cam", "cam")),
    ],
)
def test_generator_and_scenario_from_names(name, expected):
    assert generator_scenario(name) == expected


def test_the_released_judgements_are_checked(tmp_path):
    if not JUDGED.exists():
        pytest.skip(f"shared data not found at {JUDGED}")

    def problems(judge: str) -> Counter:
        counts = Counter()
        for path in sorted((JUDGED / judge).glob("*.json")):
            for answer in read_answers(path):
                codes = {code for _, code, _ in answer.check.problems}
                counts["broken keys"] += bool(codes & {"missing", "unknown-key"})
                counts["out of range"] += "out-of-range" in codes
                if not answer.check.complete:
                    assert answer.check.total is None  # never a misleading total
        return counts

    # the released files: 51 broken key sets ({"15": 0}, keys 16-30, keys 8-15 only…),
    # and scores of 2 on criteria whose maximum is 1 (14 GPT-3.5, 1 GPT-4 records)
    assert problems("gpt-3.5-fewshot") == {"broken keys": 51, "out of range": 14}
    assert problems("gpt-4") == {"broken keys": 0, "out of range": 1}
    (tmp_path / "bad.json").write_text(json.dumps([{"object1": "a", "object2": 3}]))
    with pytest.raises(DataError, match=r"\[0\]\.object2: expected a string"):
        read_answers(tmp_path / "bad.json")
