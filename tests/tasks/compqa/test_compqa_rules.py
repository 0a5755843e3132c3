"""The CompQA rule-based judge: hand-written answers for each criterion it judges,
unscored criteria left as None, merging with a judge, and its agreement with people
on the released files."""

from __future__ import annotations

import json

import pytest

from maieutic.tasks.compqa.rules import RuleJudge, aspects, merge, sentences
from tests.conftest import SHARED_DATA

STRUCTURED = """Tea and coffee are popular drinks. This comparison looks at caffeine and price.

**Caffeine:**
- Coffee holds far more caffeine per cup than tea does in most preparations.

**Price:**
- Tea usually costs less per cup than coffee in shops and at home.

Overall, tea is the better choice for a calm day."""


def test_structure_criteria_on_a_structured_answer():
    scores = RuleJudge().score(STRUCTURED, object1="tea", object2="coffee")
    assert [name for name, _ in aspects(STRUCTURED, ("tea", "coffee"))] == ["Caffeine", "Price"]
    assert scores[1] == 1.0  # two introductory sentences before the first aspect
    assert scores[3] == 1.0  # the introduction names both aspects
    assert scores[5] == scores[6] == scores[2] == scores[4] == 1.0
    assert scores[7] == 1.0  # an explicit choice naming an object
    assert scores[15] == 0.0  # 6 sentences, not 12-20
    for unscored in (8, 9, 10, 11, 12, 14, 13):  # 13 needs an encoder
        assert scores[unscored] is None


def test_prose_hedges_and_lengths():
    prose = " ".join(f"Sentence number {i} says something about tea and coffee." for i in range(14))
    scores = RuleJudge().score(
        prose + " It depends on what you prefer.", object1="tea", object2="coffee"
    )
    assert len(sentences(prose)) == 14 and scores[15] == 1.0
    assert scores[7] == 0.0  # "it depends" is no explicit choice
    assert scores[5] == 0.0 and scores[1] is None and scores[2] is None  # no named aspects


@pytest.mark.parametrize("count, inside", [(11, 0.0), (12, 1.0), (20, 1.0), (21, 0.0)])
def test_the_length_criterion_holds_12_and_20_sentences(count, inside):
    """Criterion 15 is 12–20 sentences, both ends included: each end and one past it."""
    said = (f"Sentence number {i} says something about tea and coffee." for i in range(count))
    text = " ".join(said)
    assert len(sentences(text)) == count
    assert RuleJudge().score(text, object1="tea", object2="coffee")[15] == inside


@pytest.mark.parametrize(
    ("ending", "explicit"),
    [
        ("\n\n### The Best Option:\nBaseball", 1.0),  # the structured scenarios' layout
        ("\n\n**Best option:**\nsoftball", 1.0),
        ("\n\n### Conclusion\nBaseball", 1.0),
        ("\n\n### Best option\nBoth, depending on taste", 0.0),  # a hedge is no choice
        ("\n\n- Speed: Baseball", 0.0),  # a statement, not a choice under a heading
        ("\n\n### Notes\nBaseball", 0.0),  # no choice word in the heading
    ],
)
def test_a_choice_under_a_heading(ending, explicit):
    body = "Baseball and softball differ.\n\n- Speed: softball games are shorter than baseball."
    assert RuleJudge().score(body + ending, object1="baseball", object2="softball")[7] == explicit


def test_a_label_ending_its_line_does_not_hide_the_next_label():
    text = (
        "Intro sentence one. Intro two.\n\nMain aspects of comparison:\n"
        "- **Speed**: tea is faster to make than coffee in most kitchens.\n"
        "- **Price**: tea costs less than coffee per cup in most shops."
    )
    assert [name for name, _ in aspects(text, ("tea", "coffee"))] == ["Speed", "Price"]
    labelled_alone = "Intro.\n\nSpeed:\n- tea is quicker.\nPrice:\n- tea is cheaper."
    assert [name for name, _ in aspects(labelled_alone)] == ["Speed", "Price"]


class Fixed:
    """An encoder returning chosen vectors (near duplicates for the first two)."""

    def encode(self, texts):
        import numpy as np

        vectors = np.eye(len(texts))
        vectors[1] = vectors[0]
        return vectors


def test_near_duplicates_with_an_encoder():
    text = "Tea is cheap. Tea costs little. Coffee is strong."
    assert RuleJudge(Fixed()).score(text, object1="tea", object2="coffee")[13] == 0.0


def test_merge_takes_the_judge_where_rules_are_silent():
    rules = dict.fromkeys(range(1, 16)) | {15: 1.0}
    judge = {c: 0.0 for c in range(1, 16)}
    merged = merge(rules, judge)
    assert merged[15] == 1.0 and merged[9] == 0.0 and all(v is not None for v in merged.values())


@pytest.mark.usefixtures("shared_home")
@pytest.mark.xdist_group("compqa-released")
@pytest.mark.slow
def test_agreement_with_people_on_the_released_files(cli, tmp_path):
    compqa = SHARED_DATA / "compqa"
    if not (compqa / "judged").exists():
        pytest.skip(f"shared data not found at {compqa}")
    out = tmp_path / "r.json"
    result = cli(
        "meta-eval",
        "compqa",
        "--rules",
        "--judged",
        compqa / "judged" / "gpt-4",
        "--humans",
        compqa / "human_evaluation_367.tsv",
        "--out",
        out,
    )
    assert result.code == 0, result.err
    rows = {r["criterion"]: r for r in json.loads(out.read_text())["rows"]}
    assert set(rows) == {"C1", "C2", "C3", "C4", "C5", "C6", "C7", "C13", "C15"}
    # the README's figures
    assert round(rows["C5"]["alpha_interval"], 3) == 0.457
    assert round(rows["C15"]["alpha_interval"], 3) == 0.455
    assert rows["C2"]["spearman"] is None  # the rules give 1 to every structured answer
