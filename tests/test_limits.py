"""Tests at the limits a mutation check slipped through: which side of a threshold a
tie falls on, ROUGE-L's stemming setting, ask's text-length limit at its boundary, and
per-fold thresholds of out-of-fold decisions. Each fails when the boundary moves by
one step (> for >=, stemming on, the limit off by one, one threshold for all folds)."""

from __future__ import annotations

import numpy as np
import pytest

from maieutic.ask import reading
from maieutic.errors import DataError
from maieutic.scorers.grouped_cv import OutOfFold
from maieutic.tasks.focus.span_metrics import rouge_l


def test_out_of_fold_decisions_use_each_folds_threshold_and_accept_a_tie():
    oof = OutOfFold(
        scores=np.array([0.5, 0.5, 0.7, 0.59999]),
        fold=np.array([0, 1, 1, 1]),
        thresholds=[0.5, 0.6],
    )
    # 0.5 at fold 0's threshold: accepted (>=); the same 0.5 in fold 1 is below 0.6;
    # just under a threshold is refused
    assert oof.decisions().tolist() == [True, False, True, False]


def test_rouge_l_does_not_stem():
    # tokens: the cats were running / the cat runs. Without stemming only "the" is in
    # common: P = 1/3, R = 1/4, F = 2/7. With stemming (cat, run) it would be 6/7.
    assert rouge_l("the cats were running", "the cat runs") == pytest.approx(2 / 7)
    assert rouge_l("The cat runs.", "the cat runs") == pytest.approx(1.0)  # case, punctuation


def test_ask_accepts_a_text_at_the_limit_and_refuses_one_character_more(monkeypatch):
    monkeypatch.setattr(reading, "MAX_ASK_CHARS", 40)
    at_limit = "We should act now. " * 2 + "Go"  # 40 characters
    assert len(at_limit) == 40
    assert reading.check_text(f"  {at_limit}\n", where="<argument>") == at_limit  # stripped first
    with pytest.raises(DataError, match="the text has 41 characters, over the 40 limit"):
        reading.check_text(at_limit + "!", where="<argument>")


def test_ask_reads_a_file_up_to_the_limit(monkeypatch, tmp_path):
    monkeypatch.setattr(reading, "MAX_ASK_CHARS", 40)
    path = tmp_path / "t.txt"
    path.write_text("x" * 40)
    assert reading.read_input(str(path))[0] == "x" * 40
    path.write_text("x" * 41)
    with pytest.raises(DataError, match="41 characters, over the 40 limit"):
        reading.read_input(str(path))


def test_aura_threshold_rules_differ_only_at_a_tie():
    from maieutic.tasks.aura.pipeline import Threshold

    # gt (the paper) refuses a score equal to the threshold; ge (the reference code)
    # accepts it; both agree on either side of it
    assert not Threshold(0.5, "gt").passes(0.5)
    assert Threshold(0.5, "ge").passes(0.5)
    for rule in ("gt", "ge"):
        assert Threshold(0.5, rule).passes(0.5000001)
        assert not Threshold(0.5, rule).passes(0.4999999)
