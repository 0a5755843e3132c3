"""The claims generator: questions about the text's own claims, chosen for usefulness,
well-formedness and variety; its ranker; and the command that makes it the default."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from maieutic.language.claims import read_claims
from maieutic.language.wellformed import is_well_formed
from maieutic.tasks.cqs import claim_ranker as cr
from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator, Scored, select
from maieutic.tasks.cqs.framings import Candidate, candidates

ARGUMENT = (
    "We should ban cars from the city centre because pollution harms children. "
    "Property crime is down 40 percent since the new parks opened. "
    "The new tram line will cut commuting times for everyone in the suburbs."
)


@pytest.fixture(scope="module")
def generator() -> ClaimsCQGenerator:
    return ClaimsCQGenerator()


def test_three_well_formed_questions_about_different_claims(generator):
    found = generator.questions_for(ARGUMENT)
    assert len(found.questions) == 3 and found.note is None
    assert all(is_well_formed(q, ARGUMENT) for q in found.questions)
    chosen = [s.candidate for s in found.candidates if s.candidate.question in found.questions]
    assert len({c.claim for c in chosen}) >= 2
    assert len({c.wording for c in chosen}) == 3
    # every question restates words of the text (the claim in full, not a fragment)
    assert all(any(w in q for w in ("cars", "40 percent", "tram", "pollution"))
               for q in found.questions)  # fmt: skip


def test_deterministic(generator):
    assert (
        generator.questions_for(ARGUMENT).questions == generator.questions_for(ARGUMENT).questions
    )


def test_a_text_with_nothing_to_challenge_gets_fewer_questions_and_a_note(generator):
    found = generator.questions_for("Hello there! Thanks, everyone.")
    assert found.questions == []
    assert "0 questions instead of 3" in found.note


def test_a_huge_unpunctuated_text_is_read_in_bounded_chunks(generator):
    from maieutic.language import syntax

    text = "the council should fund the buses because people need to get to work and " * 400
    chunks = syntax.sentence_chunks(text)
    # cut at spaces into chunks the parser can take; nothing beyond the read limit
    assert len(chunks) > 1 and max(map(len, chunks)) <= syntax.MAX_CHUNK_CHARS
    assert sum(map(len, syntax.sentence_chunks(text * 10))) <= syntax.MAX_READ_CHARS
    found = generator.questions_for(text)
    assert 1 <= len(found.questions) <= 3  # read, not given up on
    assert len(set(found.questions)) == len(found.questions)
    assert all(is_well_formed(q, text) for q in found.questions)


def test_emoji_are_not_restated(generator):
    text = "We should ban cars 🚗 because pollution harms kids 😡. Taxes rose 40% last year 📈."
    found = generator.questions_for(text)
    assert found.questions
    assert not any(ch in q for q in found.questions for ch in "🚗😡📈")


def test_selection_rules():
    def item(question, claim, framing, score, wording=None, flaws=()):
        return Scored(
            Candidate(
                question=question,
                claim=claim,
                framing=framing,
                generic=False,
                wording=wording or framing,
            ),
            score,
            flaws,
        )

    pool = [
        item("A?", 0, "evidence", 0.9),
        item("B?", 0, "evidence", 0.85, wording="evidence-know"),  # same claim, same family
        item("C?", 1, "figures", 0.8, flaws=("punctuation: x",)),  # ill-formed: never chosen
        item("D?", 0, "feasibility", 0.7),
        item("E?", 2, "evidence", 0.5, wording="evidence-know"),
        item("F?", 3, "evidence", 0.49),  # same wording as A: skipped
    ]
    chosen = [s.candidate.question for s in select(pool)]
    assert "B?" not in chosen and "C?" not in chosen and "F?" not in chosen
    assert chosen[0] == "A?" and set(chosen) == {"A?", "D?", "E?"}


def test_framings_restate_the_claim_and_fit_its_kind():
    reading = read_claims("The new tram line will cut commuting times for everyone.")
    found = {c.wording: c.question for c in candidates(reading)}
    assert found["likelihood"] == (
        "How likely is it that the new tram line will cut commuting times for everyone, "
        "and what could prevent it?"
    )
    # a past event is never asked about as a prediction
    past = read_claims("The old tram line cut commuting times for everyone in 2010.")
    assert "likelihood" not in {c.framing for c in candidates(past)}


def test_the_shipped_ranker_loads_and_was_trained_without_the_held_out_texts():
    ranker = cr.builtin_ranker()
    assert ranker.manifest["format"] == cr.FORMAT and len(ranker.manifest["excluded"]) == 30
    held = json.loads(Path("benchmarks/rating/heldout_cqs.json").read_text())["heldout"]
    assert sorted(held) == ranker.manifest["excluded"]
    scores = ranker.claim_scores(read_claims(ARGUMENT))
    assert scores.shape == (len(read_claims(ARGUMENT).claims),) and np.all(
        (scores > 0) & (scores < 1)
    )


def test_within_text_auc_against_scikit_learn():
    y = np.array([1, 0, 0, 1, 1, 0, 0])
    s = np.array([0.9, 0.2, 0.4, 0.3, 0.8, 0.1, 0.5])
    g = np.array([0, 0, 0, 1, 1, 1, 2])  # text 2 has one class only: left out
    expected = np.mean([roc_auc_score(y[:3], s[:3]), roc_auc_score(y[3:6], s[3:6])])
    assert cr.within_text_auc(y, scores=s, groups=g) == pytest.approx(expected)


def test_framing_priors_are_smoothed_useful_shares():
    class Ref:
        def __init__(self, cq, label):
            self.cq, self.label = cq, label

    class Item:
        def __init__(self, refs):
            self.cqs = refs

    refs = [Ref("What evidence shows it?", "Useful"), Ref("What evidence is there?", "Invalid"),
            Ref("Why?", "Useful"), Ref("Who?", "Useful")]  # fmt: skip
    priors = cr.framing_priors([Item(refs)])
    base = 3 / 4
    # evidence: 1 Useful of 2, pulled towards the overall 3/4 with 20 pseudo-counts
    assert priors["evidence"] == pytest.approx((1 + 20 * base) / (2 + 20), abs=1e-4)
    assert priors["*"] == pytest.approx(base)


def test_generate_cqs_defaults_to_claims_and_notes_fewer(cli, tmp_path):
    data = {
        "A": {"intervention_id": "A", "intervention": ARGUMENT},
        "B": {"intervention_id": "B", "intervention": "Hello there! Thanks, everyone."},
    }
    path = tmp_path / "d.json"
    path.write_text(json.dumps(data))
    out = tmp_path / "sub.json"
    result = cli("generate", "cqs", "--data", path, "--out", out)
    assert result.code == 0, result.err
    submission = json.loads(out.read_text())
    assert len(submission["A"]["cqs"]) == 3 and submission["B"]["cqs"] == []
    assert "note: B: 0 questions instead of 3" in result.err
    meta = json.loads((tmp_path / "sub.meta.json").read_text())
    assert meta["signature"]["generator"] == "claims" and "ranker" in meta["signature"]
    assert "B" in meta["notes"]
