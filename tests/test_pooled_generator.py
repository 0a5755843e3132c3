"""The pooled model route: a model question takes a slot only where the precision filter
scores it higher than the claims question it displaces (or reaches the threshold in an
empty slot); ill-formed, off-claim and repeated questions never do, nor any on a text
that states facts. The filters here are built by hand so each expectation is worked out
from their coefficients, not read off the code."""

from __future__ import annotations

import numpy as np
import pytest

from maieutic.tasks.cqs.candidate_features import FEATURES
from maieutic.tasks.cqs.candidate_filter import FACTS, CandidateFilter
from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator
from maieutic.tasks.cqs.pooled_generator import (
    CLAIMS,
    FROM_MODEL,
    MODEL,
    claim_of,
    framing_of,
    pool,
)

ARGUMENT = (
    "The city should close the old bridge to cars. It is falling apart, and repairs "
    "would cost more than a new one. Cyclists would benefit, and the traffic would move "
    "to the ring road, which has room for it. I think the council is wrong to wait."
)
PASSAGE = (
    "The bridge was opened in 1932 and carries six lanes of traffic across the river. "
    "It was designed by a local engineer, built from steel made in the region, and "
    "painted grey in 1950. A second span was added in 1971 to carry the railway line "
    "to the northern suburbs."
)
LONG_MODEL_QUESTION = (
    "If the city closed the old bridge to cars, where exactly would all of that traffic "
    "go during the morning rush, and would the ring road really cope with it every day?"
)


def _filter(weights: dict[str, float], threshold: float = 0.5) -> CandidateFilter:
    """A filter with the given coefficients on raw (unscaled) features, the rest zero."""
    coef = np.zeros(len(FEATURES))
    for name, value in weights.items():
        coef[FEATURES.index(name)] = value
    return CandidateFilter(
        mean=np.zeros(len(FEATURES)),
        scale=np.ones(len(FEATURES)),
        coef=coef,
        intercept=0.0,
        threshold=threshold,
        manifest={"test": 1},
    )


@pytest.fixture(scope="module")
def claims():
    return ClaimsCQGenerator()


def test_a_question_is_placed_in_the_framing_whose_wording_it_takes():
    assert framing_of("What evidence shows that the bridge is falling apart?") == "evidence"
    assert framing_of("How do we know that repairs would cost more?") == "evidence"
    assert framing_of("Is it actually possible to close the bridge, and what would it cost?") == (
        "feasibility"
    )
    assert framing_of("What is the author's opinion about the bridge?") == MODEL


def test_a_question_is_about_the_claim_it_shares_most_content_words_with(claims):
    reading = claims.questions_for(ARGUMENT).reading
    index = claim_of("Would repairs really cost more than a new bridge?", reading)
    assert index >= 0 and "repairs would cost more" in reading.claims[index].text
    assert claim_of("What is the weather like today?", reading) == -1


def test_with_a_flat_filter_the_claims_questions_stand(claims):
    # every candidate scores exactly 0.5: no model question is higher than a claims one
    found = claims.questions_for(ARGUMENT)
    choice = pool(ARGUMENT, [LONG_MODEL_QUESTION], claims, candidate_filter=_filter({}))
    assert [c.question for c in choice.chosen] == found.questions
    assert {c.origin for c in choice.chosen} == {CLAIMS}
    assert choice.replaced == choice.filled == 0


def test_a_model_question_scoring_higher_displaces_the_weakest_claims_question(claims):
    # P(Useful) grows with the question's length: the long model question beats the
    # shortest claims question, and only that one
    found = claims.questions_for(ARGUMENT)
    choice = pool(
        ARGUMENT, [LONG_MODEL_QUESTION], claims, candidate_filter=_filter({"q_words": 0.2})
    )
    shortest = min(found.questions, key=lambda q: len(q.split()))
    chosen = [c.question for c in choice.chosen]
    assert LONG_MODEL_QUESTION in chosen and shortest not in chosen
    kept = [q for q in chosen if q in found.questions]
    assert kept == [q for q in found.questions if q != shortest]
    assert choice.replaced == 1
    [model] = [c for c in choice.chosen if c.origin == FROM_MODEL]
    assert model.claim >= 0 and model.p_useful == pytest.approx(
        1 / (1 + np.exp(-0.2 * len(LONG_MODEL_QUESTION.split())))
    )


def test_a_model_question_below_the_threshold_takes_no_slot_even_from_a_weaker_one(claims):
    # the long question still scores higher than the shortest claims question, but under
    # a threshold of 0.9999 (32 words: its P(Useful) is 1 / (1 + e^-6.4) = 0.9983)
    choice = pool(
        ARGUMENT, [LONG_MODEL_QUESTION], claims, candidate_filter=_filter({"q_words": 0.2}, 0.9999)
    )
    assert choice.replaced == 0 and {c.origin for c in choice.chosen} == {CLAIMS}


def test_a_model_question_in_no_framing_is_scored_as_its_worst_framing(claims):
    # the long question takes no framing's wording: scored as if in the family the filter
    # likes least (definition, -50, a family none of the chosen claims questions is in),
    # it never beats a claims question
    weights = {"q_words": 0.2, "family_definition": -50.0}
    choice = pool(ARGUMENT, [LONG_MODEL_QUESTION], claims, candidate_filter=_filter(weights))
    assert choice.replaced == 0 and LONG_MODEL_QUESTION not in [c.question for c in choice.chosen]


def test_ill_formed_off_claim_and_repeated_model_questions_never_count(claims):
    found = claims.questions_for(ARGUMENT)
    offers = [
        "What is the weather like in the mountains in winter and spring and summer?",  # no claim
        found.questions[0].upper(),  # a chosen question again
        "close the old bridge to cars because repairs cost more than a new one and traffic",
    ]
    choice = pool(ARGUMENT, offers, claims, candidate_filter=_filter({"q_words": 0.5}))
    assert {c.origin for c in choice.chosen} == {CLAIMS} and choice.replaced == 0


def test_a_text_of_facts_gets_no_question_even_from_the_model(claims):
    choice = pool(
        PASSAGE,
        ["When was the second span of the bridge added?"],
        claims,
        candidate_filter=_filter({}),
    )
    assert choice.chosen == [] and choice.note == FACTS
