"""The precision filter: its choice (best first, one question per claim, never a flagged
one, a second question about a claim only in another ask), its abstention and why, and
the shipped model's file."""

from __future__ import annotations

import json
from dataclasses import replace
from importlib import resources

import numpy as np
import pytest

from maieutic.language.claims import read_claims
from maieutic.registry import create
from maieutic.tasks.cqs.candidate_features import FEATURES, candidate_rows
from maieutic.tasks.cqs.candidate_filter import (
    FACTS,
    ILL_FORMED,
    NOTHING,
    abstention,
    builtin_filter,
    choose,
    filter_from_json,
)
from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator, Scored
from maieutic.tasks.cqs.framings import Candidate


def _scored(claim: int, framing: str, question: str, flaws=()) -> Scored:
    return Scored(
        Candidate(question=question, claim=claim, framing=framing, generic=False, wording=framing),
        0.0,
        tuple(flaws),
    )


def test_the_best_first_one_per_claim_and_never_a_flagged_one():
    scored = [
        _scored(0, "evidence", "a0"),
        _scored(0, "feasibility", "a1"),
        _scored(1, "evidence", "b0", flaws=["fragment: cut"]),
        _scored(1, "evidence", "b1"),
        _scored(2, "evidence", "c0"),
    ]
    p = np.array([0.9, 0.8, 0.95, 0.5, 0.4])
    # b0 is flagged; then one per claim: a0, b1, c0
    assert choose(scored, p, 0.0, k=3) == [0, 3, 4]
    # c0 under the threshold: the second question about claim 0 asks something else
    assert choose(scored, p, 0.45, k=3) == [0, 3, 1]
    assert choose(scored, p, 0.99, k=3) == []


def test_evidence_and_counter_evidence_of_one_claim_are_one_ask():
    scored = [_scored(0, "evidence", "e"), _scored(0, "counter", "c"), _scored(0, "source", "s")]
    assert choose(scored, np.array([0.9, 0.8, 0.3]), 0.0, k=3) == [0, 2]


def test_a_text_of_facts_gets_no_question_and_says_why():
    text = "The bridge was opened in 1932. It carries six lanes of traffic across the river."
    shipped = builtin_filter()
    never = replace(shipped, threshold=1.01)  # nothing reaches it
    found = ClaimsCQGenerator(candidate_filter=never).questions_for(text)
    assert found.questions == [] and found.note == FACTS
    assert found.candidates  # scored all the same, for a reader who wants them
    # an argument in the third person states no facts: it is not said to, and a text the
    # rules can ask about is never left empty: below the threshold the filter only orders
    argument = "Cars should be banned from the centre because pollution there harms children."
    found = ClaimsCQGenerator(candidate_filter=never).questions_for(argument)
    assert found.questions and found.note.startswith(NOTHING)
    assert found.note.endswith("the filter's best questions all the same, below its threshold")
    assert found.questions[0] == max(found.candidates, key=lambda s: s.score).candidate.question


def test_when_only_ill_formed_questions_reach_the_threshold_it_says_so():
    text = "We should ban cars from the centre because pollution there harms children."
    reading = read_claims(text)
    scored = [_scored(0, "evidence", "a", flaws=["fragment: cut"]), _scored(0, "counter", "b")]
    assert abstention(reading, text, scored, p=np.array([0.9, 0.1]), threshold=0.5) == ILL_FORMED
    assert abstention(reading, text, scored, p=np.array([0.1, 0.1]), threshold=0.5) == NOTHING


def test_the_filter_scores_every_candidate_from_its_features():
    text = "We should ban cars from the centre, because pollution there harms children."
    generator = ClaimsCQGenerator(candidate_filter=builtin_filter())
    found = generator.questions_for(text)
    reading = read_claims(text)
    plain = ClaimsCQGenerator().questions_for(text).candidates
    x = candidate_rows(
        reading,
        text,
        plain,
        claim_scores=generator.ranker.claim_scores(reading),
        prior=generator.ranker.prior,
    )
    assert x.shape == (len(plain), len(FEATURES))
    f = builtin_filter()
    expected = 1 / (1 + np.exp(-(((x - f.mean) / f.scale) @ f.coef + f.intercept)))
    np.testing.assert_allclose([s.score for s in found.candidates], expected)
    assert found.questions  # this argument gets questions, each above the threshold
    assert all(s.score >= f.threshold for s in found.candidates if s.candidate.question
               in found.questions)  # fmt: skip


def test_the_registered_selector_and_its_signature():
    generator = create("generator", task="cqs", name="claims", selector="filter")
    assert generator.candidate_filter is builtin_filter()
    from maieutic.tasks.cqs.data import CQDataset

    signature = generator.signature(CQDataset(interventions={}))
    assert signature.extra["filter"] == builtin_filter().identity


def test_the_shipped_file_says_how_it_was_made():
    raw = json.loads(
        resources.files("maieutic.tasks.cqs").joinpath("candidate_filter.json").read_text()
    )
    assert raw["features"] == list(FEATURES) and len(raw["coef"]) == len(FEATURES)
    assert 0 < raw["threshold"] < 1 and raw["threshold_rule"]
    assert raw["cv"]["auc"] > raw["cv"]["auc_generator"]  # it learned more than the rules
    with pytest.raises(ValueError, match="features"):
        filter_from_json({**raw, "features": raw["features"][:-1]})


def test_the_command_line_offers_it_with_the_claims_generator_only(cli, tmp_path):
    from maieutic.samples import sample_path

    data = sample_path("cqs/sample_dataset.json")
    out = tmp_path / "filtered.json"
    made = cli("generate", "cqs", "--data", data, "--selector", "filter", "--out", out)
    assert made.code == 0, made.err
    meta = json.loads(out.with_suffix(".meta.json").read_text())
    assert meta["signature"]["filter"] == builtin_filter().identity
    refused = cli("generate", "cqs", "--data", data, "--generator", "template",
                  "--selector", "filter", "--out", tmp_path / "t.json")  # fmt: skip
    assert refused.code == 2 and "--generator claims" in refused.err
    assert len(refused.err.strip().splitlines()) == 1
