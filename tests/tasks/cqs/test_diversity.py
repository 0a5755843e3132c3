"""Diversity measures: hand-worked values, and golden numbers from the cited tool."""

from __future__ import annotations

import json

import pytest

from maieutic.metrics.diversity import (
    compressed_sizes,
    compression_ratio,
    cr_div,
    diversity_report,
    ngram_diversity_score,
    per_question_cr_div,
    per_question_ngram_diversity,
)
from tests.conftest import FIXTURES

GOLDEN = FIXTURES / "diversity" / "golden.json"


def test_ngram_diversity_joins_questions_and_keeps_case():
    # joined: "A b a a B" -> tokens A b a a B (case kept, so A != a and B != b)
    # n=1: 4 distinct / 5; n=2: (A b)(b a)(a a)(a B) 4/4; n=3: 3/3; n=4: 2/2
    assert ngram_diversity_score(["A b a", "a B"]) == pytest.approx(4 / 5 + 1 + 1 + 1)


def test_ngram_diversity_runs_across_question_boundaries():
    # "x y" + "x y" -> "x y x y": the bigram (y x) exists only across the boundary
    # n=1: 2/4; n=2: (x y)(y x)(x y) 2/3; n=3: (x y x)(y x y) 2/2; n=4: 1/1
    assert ngram_diversity_score(["x y", "x y"]) == pytest.approx(2 / 4 + 2 / 3 + 1 + 1)
    # three tokens have no 4-gram: the tool would divide by zero; maieutic says None
    assert ngram_diversity_score(["x y", "z"]) is None


def test_ngram_diversity_splits_on_single_spaces_only():
    # a double space yields an empty token, as str.split(" ") does in the cited tool:
    # "a  b" -> [a, "", b]; with "c d": tokens a '' b c d
    # n=1: 5/5, n=2: 4/4, n=3: 3/3, n=4: 2/2
    assert ngram_diversity_score(["a  b", "c d"]) == pytest.approx(4.0)


def test_compression_ratio_is_original_over_compressed_and_cr_div_its_reciprocal():
    texts = ["What evidence supports this?"] * 40
    original, compressed = compressed_sizes(texts)
    assert original == len(" ".join(texts).encode("utf-8"))
    assert compression_ratio(texts) == pytest.approx(original / compressed)
    assert cr_div(texts) == pytest.approx(compressed / original)
    varied = [f"Question {i} about topic {i * 7} and cause {i * 13}?" for i in range(40)]
    assert cr_div(texts) < cr_div(varied)  # repetition compresses better
    assert compression_ratio([]) is None and cr_div([]) is None


def test_per_question_variant_keeps_its_own_rules():
    # lower-cased, n-grams within a question: [a b a] and [a b]
    # unigrams 2/5, bigrams (a b)(b a)(a b) 2/3, trigram 1/1, no 4-gram
    div = per_question_ngram_diversity(["A b a", "a B"])
    assert div["1"] == pytest.approx(2 / 5)
    assert div["2"] == pytest.approx(2 / 3)
    assert div["3"] == pytest.approx(1.0)
    assert div["4"] is None
    assert div["sum"] == pytest.approx(2 / 5 + 2 / 3 + 1)
    assert per_question_ngram_diversity(["x y", "z"])["2"] == pytest.approx(1.0)
    assert per_question_cr_div([]) is None


def test_report_names_both_variants():
    report = diversity_report(["Why is that so?", "Who says so?", "Is it true?"])
    expected = {"n_texts", "ngram_diversity", "compression_ratio", "cr_div", "per_question"}
    assert set(report) == expected
    assert set(report["per_question"]) == {"ngram", "cr_div"}


GOLDEN_CASES = json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else []


@pytest.mark.parametrize("golden", GOLDEN_CASES, ids=[c["name"] for c in GOLDEN_CASES])
def test_matches_the_cited_tool(golden):
    texts = golden["texts"]
    assert compressed_sizes(texts) == (golden["original_bytes"], golden["compressed_bytes"])
    # the tool rounds both figures to 3 decimals
    assert round(compression_ratio(texts), 3) == golden["compression_ratio"]
    if golden["ngram_diversity_score"] is None:
        assert ngram_diversity_score(texts) is None
    else:
        assert round(ngram_diversity_score(texts), 3) == golden["ngram_diversity_score"]


def test_golden_numbers_are_present():
    assert len(GOLDEN_CASES) >= 10
