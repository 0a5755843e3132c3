"""Diversity measures against values worked by hand."""

from __future__ import annotations

import gzip

import pytest

from maieutic.metrics.diversity import compression_ratio_diversity, ngram_diversity


def test_ngram_diversity_hand_worked():
    # tokens: [a b a] and [a b]
    # unigrams: a b a a b -> 2 distinct / 5
    # bigrams: (a b) (b a) (a b) -> 2 distinct / 3
    # trigrams: (a b a) -> 1 / 1 ; 4-grams: none -> None
    div = ngram_diversity(["A b a", "a B"])
    assert div["1"] == pytest.approx(2 / 5)
    assert div["2"] == pytest.approx(2 / 3)
    assert div["3"] == pytest.approx(1.0)
    assert div["4"] is None
    assert div["sum"] == pytest.approx(2 / 5 + 2 / 3 + 1)


def test_ngrams_do_not_cross_question_boundaries():
    # joined, "x y" + "z" would form the bigram (y z); separately there is only (x y)
    assert ngram_diversity(["x y", "z"])["2"] == pytest.approx(1.0)
    assert ngram_diversity(["x y", "z"])["3"] is None


def test_identical_questions_are_less_diverse():
    same = ngram_diversity(["why is that so"] * 3)
    assert same["1"] == pytest.approx(4 / 12)


def test_cr_div_is_compressed_over_original_size():
    texts = ["What evidence supports this?", "Who says so?"]
    raw = "\n".join(texts).encode()
    assert compression_ratio_diversity(texts) == pytest.approx(
        len(gzip.compress(raw, compresslevel=9, mtime=0)) / len(raw)
    )
    repetitive = compression_ratio_diversity(["What evidence supports the claim?"] * 30)
    varied = compression_ratio_diversity([f"Question {i} about topic {i * 7}?" for i in range(30)])
    assert repetitive < varied
    assert compression_ratio_diversity([]) is None
