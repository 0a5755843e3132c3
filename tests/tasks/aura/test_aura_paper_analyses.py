"""The AURA paper's analyses ("AURA-QG"): non-redundancy under both variants, the
balanced structural entropy and its Table 2 magnitudes, and the agreement of the
pipeline's preference with people's votes under each aggregate and tie rule. Every
expected value is worked by hand here, never taken from the code under test."""

from __future__ import annotations

import json
import math

import pytest

from maieutic.errors import DataError
from maieutic.evaluate.results_file import load_results
from maieutic.registry import create
from maieutic.stats import PreferenceItem, UndefinedStatistic, preference_agreement
from maieutic.tasks.aura.metrics import (
    Mapping,
    balanced_entropy,
    non_redundancy,
    redundant_questions,
    structural_entropy,
)
from tests.conftest import SHARED_DATA

SAMPLE = SHARED_DATA / "aura" / "sample_input.json"


# --- non-redundancy (section 4.3.3) -------------------------------------------------


def test_nrs_by_hand_under_both_variants():
    mappings = [
        Mapping(question="What is a?", chunk_id=0, score=0.9, answerable=True),
        Mapping(
            question="What about a?", chunk_id=0, score=0.8, answerable=True
        ),  # redundant: unit 0 already used
        Mapping(
            question="Who won?", chunk_id=1, score=0.1, answerable=False
        ),  # unanswerable: neither redundant nor a first use
        Mapping(
            question="What is b?", chunk_id=1, score=0.7, answerable=True
        ),  # not redundant: the earlier unit-1 question failed
        Mapping(question="What is c?", chunk_id=2, score=0.2, answerable=False),
    ]
    assert redundant_questions(mappings) == 1
    # paper: 1 − |R|/|Q| = 1 − 1/5; answerable: 1 − |R|/|answerable| = 1 − 1/3
    assert non_redundancy(mappings) == pytest.approx(0.8)
    assert non_redundancy(mappings, "paper") == pytest.approx(0.8)
    assert non_redundancy(mappings, "answerable") == pytest.approx(2 / 3)


def test_nrs_with_no_answerable_question_and_with_all_answerable():
    none_answerable = [
        Mapping(question="q", chunk_id=0, score=0.1, answerable=False),
        Mapping(question="r", chunk_id=0, score=0.1, answerable=False),
    ]
    # R is empty: 1 − 0/2 for the paper; the reference code scores 1.0 as well
    assert non_redundancy(none_answerable, "paper") == 1.0
    assert non_redundancy(none_answerable, "answerable") == 1.0
    all_answerable = [
        Mapping(question=q, chunk_id=unit, score=0.9, answerable=True)
        for q, unit in zip("abcd", (0, 0, 0, 1), strict=True)
    ]
    # two questions repeat unit 0: 1 − 2/4 under both (|Q| = |answerable|)
    assert non_redundancy(all_answerable, "paper") == 0.5
    assert non_redundancy(all_answerable, "answerable") == 0.5
    assert non_redundancy([], "paper") == 1.0 and non_redundancy([], "answerable") == 1.0


def test_nrs_counts_a_list_window_as_its_own_unit():
    mappings = [
        Mapping(question="a", chunk_id=5, score=0.9, answerable=True, window=0),
        Mapping(
            question="b", chunk_id=5, score=0.9, answerable=True, window=1
        ),  # another window of list 5: not redundant
        Mapping(
            question="c", chunk_id=5, score=0.9, answerable=True, window=1
        ),  # the same window again: redundant
    ]
    assert non_redundancy(mappings, "paper") == pytest.approx(1 - 1 / 3)


def test_nrs_variant_outside_the_set_is_refused():
    with pytest.raises(ValueError, match="non-redundancy variant"):
        non_redundancy([], "all")
    with pytest.raises(DataError, match="--non-redundancy must be one of paper, answerable"):
        create("evaluator", task="aura", name="aura", non_redundancy="all")


# --- balanced structural entropy (section 4.3.4) ------------------------------------


def _balanced(se: float, n_questions: int, n_classes: int) -> float:
    weighted = se * n_questions / n_classes
    return weighted / (weighted + n_classes)


def test_entropy_by_hand_with_log2():
    questions = ["What is a?", "What is b?", "Why is c?", "How is d made?"]
    # what 2/4, why 1/4, how 1/4
    se = -(0.5 * math.log2(0.5) + 2 * 0.25 * math.log2(0.25))
    assert se == 1.5
    # paper: |Q| = 4, |C| = 11 template classes: (1.5·4/11) / (1.5·4/11 + 11)
    assert balanced_entropy(questions) == pytest.approx((6 / 11) / (6 / 11 + 11))
    mappings = [
        Mapping(question=q, chunk_id=n, score=0.9, answerable=True)
        for n, q in enumerate(questions[:3])
    ]
    mappings.append(
        Mapping(question="Is it safe?", chunk_id=3, score=0.1, answerable=False)
    )  # left out by observed
    # observed: the 3 answerable (what, what, why), |C| = 2 classes seen
    se_observed = -(2 / 3 * math.log2(2 / 3) + 1 / 3 * math.log2(1 / 3))
    expected = (se_observed * 3 / 2) / (se_observed * 3 / 2 + 2)
    assert structural_entropy(mappings, "observed") == pytest.approx(expected)
    # paper counts all four questions: what, what, why, yes-no over |C| = 11
    se_all = -(0.5 * math.log2(0.5) + 2 * 0.25 * math.log2(0.25))
    assert structural_entropy(mappings, "paper") == pytest.approx(_balanced(se_all, 4, 11))


def test_the_paper_variant_cannot_reach_table_2_at_paragraph_level():
    # Table 2, Car Manual, paragraph, zero-shot: 8 questions, entropy 42.6%. Eight
    # questions of eight different templates give the largest SE possible, log2 8 = 3
    # bits; with |C| = 11: 3·8/11 / (3·8/11 + 11) = 24/145 ≈ 0.166 < 0.426
    eight = [
        "What is it?",
        "Why is it?",
        "How is it?",
        "How many are there?",
        "How much is it?",
        "When is it?",
        "Where is it?",
        "Who is it?",
    ]
    assert balanced_entropy(eight) == pytest.approx(24 / 145)
    assert balanced_entropy(eight) < 0.426
    # observed, the same 7 answerable questions (Ans 86.5%) split over two templates
    # (4 what, 3 why): SE = H(4/7, 3/7), |C| = 2
    se = -(4 / 7 * math.log2(4 / 7) + 3 / 7 * math.log2(3 / 7))
    seven = [
        Mapping(question="What is x?", chunk_id=n, score=0.9, answerable=True) for n in range(4)
    ]
    seven += [
        Mapping(question="Why is x?", chunk_id=n, score=0.9, answerable=True) for n in range(4, 7)
    ]
    value = structural_entropy(seven, "observed")
    assert value == pytest.approx((se * 7 / 2) / (se * 7 / 2 + 2))
    assert value > 0.426  # the observed variant reaches Table 2's magnitudes


# --- preference agreement (sections 6.1, 6.5, appendix C) ---------------------------


def _items() -> list[PreferenceItem]:
    return [
        # votes 2–2, the tie-breaker says B. ans prefers A, cov ties, nrs and ent B.
        # sums 1.7 and 1.7: the sum aggregate ties; vote: B by 2 to 1
        PreferenceItem(
            {"ans": (0.9, 0.5), "cov": (0.5, 0.5), "nrs": (0.2, 0.4), "ent": (0.1, 0.3)},
            ["A", "A", "B", "B"],
            tie_breaker="B",
        ),
        # people A (3–2). ans A, cov B, nrs A, ent ties. sums 2.8 vs 2.3: A; vote: A 2–1
        PreferenceItem(
            {"ans": (0.8, 0.6), "cov": (0.7, 0.9), "nrs": (1.0, 0.5), "ent": (0.3, 0.3)},
            ["A", "A", "A", "B", "B"],
        ),
        # a tie and no tie-breaker: skipped
        PreferenceItem(
            {"ans": (0.1, 0.2), "cov": (0.1, 0.2), "nrs": (0.1, 0.2), "ent": (0.1, 0.2)},
            ["A", "B"],
        ),
        # people B (2–1). ans A, cov A, nrs B, ent B. sums 2.7 vs 2.0: A; vote: 2–2 tie
        PreferenceItem(
            {"ans": (0.9, 0.1), "cov": (0.9, 0.8), "nrs": (0.5, 0.6), "ent": (0.4, 0.5)},
            ["B", "B", "A"],
        ),
    ]


def test_preference_agreement_with_ties_by_hand_sum_aggregate():
    out = preference_agreement(_items(), aggregate="sum")
    assert out["n_items"] == 3 and out["n_tied_skipped"] == 1 and out["n_tie_broken"] == 1
    assert out["aggregate_rule"] == "sum"
    # per metric over the three usable items (human: B, A, B)
    assert out["per_metric"]["ans"]["agree"] == 1  # A, A, A
    assert out["per_metric"]["cov"]["agree"] == 0  # tie, B, A
    assert out["per_metric"]["nrs"]["agree"] == 3  # B, A, B
    assert out["per_metric"]["ent"]["agree"] == 2  # B, tie, B
    assert out["per_metric"]["ent"]["proportion"] == pytest.approx(2 / 3)
    assert out["metric_ties"] == {"ans": 0, "cov": 1, "nrs": 0, "ent": 1}
    # sum: item 1 ties (no choice, counted as not agreeing), item 2 agrees, item 4 not
    assert out["aggregate"] == {"agree": 1, "n": 3, "proportion": 1 / 3, "ties": 1}
    # P(annotator agrees | agree): item 2, 3 of 5 for A; | disagree: item 4, 1 of 3 for A;
    # the tied item 1 is in neither
    assert out["p_annotator_agrees_given_agree"] == pytest.approx(3 / 5)
    assert out["p_annotator_agrees_given_disagree"] == pytest.approx(1 / 3)


def test_preference_agreement_with_ties_by_hand_vote_aggregate():
    out = preference_agreement(_items(), aggregate="vote")
    # vote: item 1 B (agrees with the tie-breaker), item 2 A (agrees), item 4 tied
    assert out["aggregate"] == {"agree": 2, "n": 3, "proportion": 2 / 3, "ties": 1}
    # item 1: 2 of its 4 annotators chose B (the tie-breaker is not one of them);
    # item 2: 3 of 5 chose A
    assert out["p_annotator_agrees_given_agree"] == pytest.approx((2 / 4 + 3 / 5) / 2)
    assert out["p_annotator_agrees_given_disagree"] is None


def test_sums_equal_but_for_float_rounding_are_a_tie():
    # 0.1 + 0.2 != 0.3 in floating point; the two sets' sums are the same number
    from maieutic.stats.preference import pipeline_choice

    assert 0.1 + 0.2 != 0.3
    assert pipeline_choice({"ans": (0.1, 0.3), "cov": (0.2, 0.0)}, "sum") is None
    assert pipeline_choice({"ans": (0.1, 0.3), "cov": (0.2, 1e-6)}, "sum") == "B"


def test_preference_agreement_refusals():
    with pytest.raises(ValueError, match="aggregate must be one of sum, vote"):
        preference_agreement(_items(), aggregate="mean")
    tied = [PreferenceItem({"ans": (1.0, 0.0)}, ["A", "B"])]
    with pytest.raises(UndefinedStatistic):
        preference_agreement(tied, aggregate="sum")


# --- the commands: options, refusals, signatures ------------------------------------


def test_option_values_outside_the_set_exit_2(cli, tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("The pump moves water through the pipes every morning.\n")
    bad = cli("evaluate", "aura", doc, "--non-redundancy", "all")
    assert bad.code == 2 and "Invalid value for '--non-redundancy'" in bad.err
    bad = cli("evaluate", "aura", doc, "--entropy", "table2")
    assert bad.code == 2 and "Invalid value for '--entropy'" in bad.err
    prefs = tmp_path / "prefs.jsonl"
    prefs.write_text("{}\n")
    bad = cli("meta-eval", "aura-preferences", prefs, "--aggregate", "mean")
    assert bad.code == 2 and "Invalid value for '--aggregate'" in bad.err


def test_a_bad_tie_breaker_is_one_line_naming_the_row(cli, tmp_path):
    prefs = tmp_path / "prefs.jsonl"
    good = {"document": "d.md", "set1": "a.txt", "set2": "b.txt", "votes": ["1", "2"]}
    prefs.write_text(json.dumps(good) + "\n" + json.dumps({**good, "tie_breaker": "3"}) + "\n")
    out = tmp_path / "agree.json"
    bad = cli("meta-eval", "aura-preferences", prefs, "--out", out)
    assert bad.code == 2 and not out.exists()
    [line] = bad.err.strip().splitlines()
    assert f"{prefs}:2" in line and "tie_breaker must be 1/2" in line


@pytest.mark.slow
def test_sample_nrs_variants_recorded_and_recomputed_from_items(cli, tmp_path):
    if not SAMPLE.exists():
        pytest.skip(f"shared data not found at {SAMPLE}")
    figures = {}
    for variant in ("paper", "answerable"):
        out = tmp_path / f"{variant}.json"
        result = cli("evaluate", "aura", SAMPLE, "--non-redundancy", variant, "--out", out)
        assert result.code == 0, result.err
        assert f"nrs:{variant}" in result.out  # printed in the signature line
        for r in json.loads(out.read_text())["results"]:
            assert r["signature"]["nrs"] == variant
            answerable = [(i["unit"], i["list_window"]) for i in r["items"] if i["answerable"]]
            repeats = len(answerable) - len(set(answerable))
            denominator = len(r["items"]) if variant == "paper" else len(answerable)
            assert r["summary"]["non_redundancy"] == pytest.approx(1 - repeats / denominator)
            figures[variant, r["submission"]] = r["summary"]["non_redundancy"]
        # a file written before the option (no nrs in its signature) still loads
        data = json.loads(out.read_text())
        for r in data["results"]:
            del r["signature"]["nrs"]
        old = tmp_path / f"old-{variant}.json"
        old.write_text(json.dumps(data))
        assert "nrs" not in load_results(old)[0].signature.extra
    # the sample's second set has an unanswerable question: the paper's figure is higher
    assert figures["paper", "questions2"] >= figures["answerable", "questions2"]
