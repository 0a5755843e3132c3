"""Answers at the edges, scored by the rules as documented (tolerated, flagged):
empty, 100,000 characters, not English, all bullets; and the rules scorer through the
command on a released file with the real embedding model."""

from __future__ import annotations

import json

import pytest

from maieutic.tasks.compqa.data import Answer
from maieutic.tasks.compqa.evaluate import RubricEvaluator, answer_flags
from maieutic.tasks.compqa.rules import RuleJudge
from tests.conftest import SHARED_DATA


def _score(text):
    answer = Answer(
        object1="tea", object2="coffee", aspect="", comparison=text, generator="g", scenario="1"
    )
    [scored] = RubricEvaluator(RuleJudge(), None, "rules").score_answers([answer])
    return scored, [f.code for f in answer_flags([answer], "f.json")]


def test_an_empty_answer():
    scored, flags = _score("")
    assert flags == ["empty-answer"]
    assert scored.scores == {15: 0.0, 7: 0.0, 5: 0.0}  # nothing else can be decided
    assert scored.total is None
    assert {p["at"] for p in scored.problems if p["code"] == "unscored"} >= {"C1", "C9", "C13"}


def test_a_100k_character_answer():
    text = "Tea is cheaper than coffee in most shops. " * 2500
    assert len(text) >= 100_000
    scored, flags = _score(text)
    assert flags == ["long-answer"]
    assert scored.scores[15] == 0.0  # thousands of sentences, not 12-20


def test_a_non_english_answer():
    text = (
        "Чай и кофе — популярные напитки. Кофе содержит больше кофеина, чем чай. "
        "Чай дешевле кофе в большинстве магазинов. Поэтому чай — лучший выбор для утра. "
    ) * 4
    scored, flags = _score(text)
    assert flags == ["not-english"]
    assert 7 not in scored.scores  # its rule reads English choice words
    assert scored.scores[15] == 1.0  # 16 sentences: segmentation still works


def test_all_bullet_answers():
    plain = "\n".join(f"- Tea differs from coffee in way number {i}." for i in range(14))
    scored, _ = _score(plain)
    assert scored.scores[15] == 1.0 and scored.scores[5] == 0.0
    assert 1 not in scored.scores  # no named aspect: where an introduction ends is unknown
    labelled = "\n".join(
        f"- {name}: tea and coffee differ a great deal in {name.lower()} for most drinkers."
        for name in ("Price", "Caffeine", "Taste")
    )
    scored, _ = _score(labelled)
    assert scored.scores[5] == 1.0 and scored.scores[6] == 1.0
    assert scored.scores[1] == 0.0  # aspects from the first line: no introduction


@pytest.mark.usefixtures("shared_home")
@pytest.mark.xdist_group("compqa-released")
@pytest.mark.slow
def test_rules_on_a_released_file_with_the_real_encoder(cli, tmp_path):
    path = SHARED_DATA / "compqa" / "judged" / "gpt-4" / "gpt4_scenario_3.json"
    if not path.exists():
        pytest.skip(f"shared data not found at {path}")
    out = tmp_path / "rules.json"
    result = cli("evaluate", "compqa", path, "--out", out)
    assert result.code == 0, result.err
    [res] = json.loads(out.read_text())["results"]
    assert res["summary"]["n_answers"] == 150 and res["summary"]["n_complete"] == 0
    items = res["items"]
    assert all(set(i["sources"].values()) == {"rules"} for i in items)
    assert all("13" in i["score_dict"] for i in items)  # the encoder decides duplicates
    # the scenario asks for a one-word final choice: the rules find most of them
    assert res["summary"]["criteria"]["C7"] > 0.5
