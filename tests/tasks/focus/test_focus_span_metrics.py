"""Span metrics against hand-worked values, the pairing rules, best match, and the
embedding scorer (real model: marked slow)."""

from __future__ import annotations

import pytest

from maieutic.tasks.focus.span_metrics import (
    TokenEmbeddingSimilarity,
    best_match,
    edit_similarity,
    pair_labels,
    rouge_l,
    token_jaccard,
)
from maieutic.tasks.focus.type_labels import SpanLabel


@pytest.mark.parametrize(
    ("a", "b", "value"),
    [
        ("The cat sat", "the cat", 2 / 3),
        ("a b c d", "c d e", 2 / 5),
        ("same words", "words same", 1.0),
        ("theirs.", "theirs", 0.0),  # punctuation stays on the token, as released
        ("", "", 1.0),
        ("", "something", 0.0),
    ],
)
def test_token_jaccard(a, b, value):
    assert token_jaccard(a, b) == pytest.approx(value)


def test_rouge_l_hand_worked():
    # LCS of "the cat sat on the mat" / "the cat on a mat": the cat on mat = 4 tokens;
    # P = 4/5, R = 4/6, F = 2PR/(P+R) = 8/11
    assert rouge_l("the cat sat on the mat", "the cat on a mat") == pytest.approx(8 / 11)
    # "a b c d" vs "d c b a": the LCS is one token; P = R = 1/4
    assert rouge_l("a b c d", "d c b a") == pytest.approx(0.25)
    assert rouge_l("", "") == 1.0 and rouge_l("x", "") == 0.0


def test_edit_similarity_hand_worked():
    assert edit_similarity("kitten", "sitting") == pytest.approx(1 - 3 / 7)
    assert edit_similarity("abc", "abc") == 1.0
    assert edit_similarity("", "") == 1.0 and edit_similarity("ab", "") == 0.0


def test_best_match_takes_the_closest_reference():
    assert best_match(token_jaccard, "the cat", ["a dog", "the cat sat"]) == pytest.approx(2 / 3)
    assert best_match(token_jaccard, "", []) == 1.0
    assert best_match(token_jaccard, "x", ["", "  "]) == 0.0


GOLD = [
    SpanLabel(type="OSP", text="first span", slot=1),
    SpanLabel(type="TC", text="second span", slot=2),
]
SWAPPED = [
    SpanLabel(type="TC", text="second span", slot=1),
    SpanLabel(type="OSP", text="first span", slot=2),
]


def test_type_pairing_follows_the_types():
    pairs = pair_labels(GOLD, predicted=SWAPPED, pairing="type")
    assert [(p.type, p.gold, p.predicted) for p in pairs] == [
        ("OSP", "first span", "first span"),
        ("TC", "second span", "second span"),
    ]


def test_positional_pairing_follows_the_slots():
    pairs = pair_labels(GOLD, predicted=SWAPPED, pairing="positional")
    assert [(p.slot, p.type, p.gold, p.predicted) for p in pairs] == [
        (1, "OSP", "first span", "second span"),
        (2, "TC", "second span", "first span"),
    ]
    # an empty slot on both sides is the empty string: they agree
    pairs = pair_labels([GOLD[0]], predicted=[SWAPPED[0]], pairing="positional")
    assert (pairs[1].gold, pairs[1].predicted) == ("", "")


def test_missed_types_pair_with_nothing_and_spurious_ones_are_not_span_scored():
    pairs = pair_labels(GOLD, predicted=[SpanLabel(type="BS", text="x")], pairing="type")
    assert [(p.type, p.predicted) for p in pairs] == [("OSP", None), ("TC", None)]
    assert (
        pair_labels(
            [SpanLabel(type="NONE", text="Null")],
            predicted=[SpanLabel(type="BS", text="x")],
            pairing="type",
        )
        == []
    )


@pytest.mark.slow
def test_embedding_scorer_on_the_embedded_model():
    scorer = TokenEmbeddingSimilarity()
    identical, paraphrase, unrelated, empty = scorer.score_pairs(
        [
            ("taxes are theft", "taxes are theft"),
            ("taxes are theft", "taxation is stealing"),
            ("taxes are theft", "my cat likes fish"),
            ("", ""),
        ]
    )
    assert identical == pytest.approx(1.0, abs=1e-4)
    assert paraphrase > unrelated
    assert empty == 1.0
    # each distinct non-empty text went through the model once
    assert scorer.n_encoded == 3
