"""The claims generator finds the argument and challenges it where it is weak: links
between a reason and what it supports, framings that fit the claim, connectives and
hedges handled, pronouns named where the text says plainly what they stand for, a
forum reply read with the message it answers, three questions for a short argument."""

from __future__ import annotations

import json

import pytest

from maieutic.language.claims import read_claims
from maieutic.tasks.cqs.candidate_filter import FACTS
from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator
from tests.conftest import CQS_DEV, SHARED_DATA

GENERATOR = ClaimsCQGenerator()


def questions(text: str) -> list[str]:
    return GENERATOR.questions_for(text).questions


def test_connectives_are_never_copied_into_a_claim():
    found = questions(
        "WALTON: In addition, United Airlines has cancelled many flights this year. "
        "On the other hand, savers have lost a lot of money. "
        "We also, though, need to make sure that the wealthy pay their fair share."
    )
    assert found, "the text makes claims"
    for question in found:
        for connective in ("in addition", "on the other hand", "though", "also"):
            assert f" {connective}" not in question.lower(), question


def test_no_evidence_is_asked_for_a_proposal_or_a_value_judgement():
    found = questions(
        "MAYOR: We should ban diesel cars from the centre. Cycling lanes are a wonderful "
        "idea. Pollution causes asthma in children."
    )
    assert found, "a generator that asks nothing must not pass"
    assert not any(q.startswith("What evidence shows that we should") for q in found)
    assert not any("evidence" in q and "wonderful idea" in q for q in found)
    assert any(q.startswith("What evidence shows that pollution causes asthma") for q in found)


def test_a_norm_gets_no_better_way_cost_or_risk_question():
    found = questions("CLINTON: We should respect the law. We must obey the courts.")
    assert found, "a generator that asks nothing must not pass"
    assert not any(
        word in q for q in found for word in ("better ways", "possible to", "go wrong")
    ), found


def test_definitions_only_for_terms_whose_meaning_is_at_issue():
    found = questions(
        "JL: Payday lenders make short-term loans. Regulatory action would cut the "
        "supply of credit. The poor pay more than their fair share of interest."
    )
    definitions = [q for q in found if "mean by" in q]
    assert found, "a generator that asks nothing must not pass"
    assert not any('"short-term' in q or "regulatory action" in q for q in definitions)


def test_a_hedged_claim_is_asked_about_with_its_hedge():
    found = questions("TRUMP: NAFTA is probably the worst trade deal ever signed in this country.")
    assert found[0] == (
        "How sure can we be that NAFTA is the worst trade deal ever signed in this country, "
        "as Trump suggests?"
    )
    assert not any(q.startswith("What evidence shows that NAFTA") for q in found)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "If we let airlines go out of business, service will get better.",
            "Would service really get better if we let airlines go out of business?",
        ),
        (
            "A higher minimum wage would cost many young workers their jobs.",
            "Would a higher minimum wage really cost many young workers their jobs?",
        ),
        ("This plan can cut emissions by half.", "Can this plan really cut emissions by half?"),
        (
            "Prices are going to rise sharply next year.",
            "Would prices really rise sharply next year?",
        ),
    ],
)
def test_a_forecast_is_asked_back_whether_it_would_really_follow(text, expected):
    from maieutic.tasks.cqs.framings import candidates

    asked = [c for c in candidates(read_claims(text)) if c.wording == "consequence"]
    assert [c.question for c in asked] == [expected]
    assert asked[0].framing == "likelihood", "a wording of the likelihood family"


@pytest.mark.parametrize(
    "text",
    [
        "Cutting taxes won't help the poor.",  # negated: "would … really not help" reads backwards
        "Companies will come.",  # too little to ask back
        "We could have rebuilt our country twice.",  # looks back, not forward
        "I will vote for her in November.",  # the speaker's own plan
        "Taxes rose sharply last year.",  # no forecast
    ],
)
def test_no_forecast_question_where_the_claim_is_not_a_plain_forecast(text):
    from maieutic.tasks.cqs.framings import candidates

    assert not [c for c in candidates(read_claims(text)) if c.wording == "consequence"]


def test_the_link_from_a_reason_to_its_conclusion_is_challenged_first():
    text = (
        "CLINTON: Pollution causes asthma in children. That's why we must ban diesel cars "
        "from the centre."
    )
    reading = read_claims(text)
    [link] = [c for c in reading.claims if c.kind == "inference"]
    assert (link.cause, link.effect) == (
        "pollution causes asthma in children",
        "we must ban diesel cars from the centre",
    )
    assert questions(text)[0] == (
        "Does the fact that pollution causes asthma in children really show that we must "
        "ban diesel cars from the centre?"
    )


def test_so_at_the_start_of_a_sentence_draws_a_conclusion_from_the_one_before():
    reading = read_claims("X: Rents rose by half in five years. So the city needs more homes.")
    [link] = [c for c in reading.claims if c.kind == "inference"]
    assert link.cause == "rents rose by half in five years"
    assert link.effect == "the city needs more homes"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "CLINTON: We need the help of Muslim communities. They're on the front lines.",
            "Muslim communities are on the front lines",
        ),
        (
            "X: The new tax hurts small shops. It takes a fifth of the profit.",
            "the new tax takes a fifth of the profit",
        ),
    ],
)
def test_a_pronoun_is_named_when_the_sentence_before_says_plainly_what_it_is(text, expected):
    assert expected in [c.text for c in read_claims(text).claims]


@pytest.mark.parametrize(
    "text",
    [
        # two things "they" could stand for: no guess
        "X: Farmers and bankers met the minister. They want lower taxes.",
        # "it is …" stands for what was said, not a thing
        "X: The senator took the Fifth. It's disgraceful.",
        # the clause itself names another: "plants build plants" would be wrong
        "X: Our plants closed. They are building plants in Mexico.",
    ],
)
def test_no_guess_when_the_pronoun_is_not_plain(text):
    first, *rest = [c.text for c in read_claims(text).claims]
    assert rest == [], rest  # only the first sentence's own claim
    assert not first.lower().startswith(("they", "it "))


def test_a_forum_reply_is_read_with_the_message_it_answers():
    text = (
        'kim: "Fine by me"\n < this message is answering to > \n'
        'lee: "The democratic nominee will be bleeding votes no matter who wins"'
    )
    reading = read_claims(text)
    answered = [c for c in reading.claims if c.answered]
    assert [c.text for c in answered] == [
        "the democratic nominee will be bleeding votes no matter who wins"
    ]
    found = questions(text)
    assert found and all("the speaker" not in q for q in found)
    assert any("democratic nominee" in q for q in found)


def test_a_short_argument_still_gets_three_questions_from_different_sides():
    found = questions("X: Home schooling gives children a worse education than public schools.")
    assert len(found) == 3
    openings = {q.split(" that ")[0] for q in found}
    assert len(openings) == 3, found


def test_a_text_that_argues_nothing_gets_fewer_questions_and_says_why():
    result = GENERATOR.questions_for("X: Hello everyone, and good evening!")
    assert result.questions == []
    assert result.note and "no complete claim" in result.note


@pytest.fixture(scope="module")
def dev_texts():
    if not CQS_DEV.exists():
        pytest.skip(f"shared data not found at {CQS_DEV}")
    from tests.conftest import REPO

    held = set(json.loads((REPO / "benchmarks/rating/heldout_cqs.json").read_text())["heldout"])
    data = json.loads(CQS_DEV.read_text())
    test = json.loads((SHARED_DATA / "cqs" / "test-dev.json").read_text())
    texts = {k: v["intervention"] for k, v in data.items() if k not in held}
    texts.update({k: v["intervention"] for k, v in test.items()})
    return texts


@pytest.mark.slow
def test_most_development_texts_get_three_questions(dev_texts):
    """A guard against losing coverage (the held-out texts are never read here): 46% of
    the 118 development texts got three questions before this change, 71% after."""
    found = [GENERATOR.questions_for(t) for t in dev_texts.values()]
    counts = [len(f.questions) for f in found]
    assert sum(n == 3 for n in counts) / len(counts) >= 0.68
    # a text taken to state facts gets none on purpose (2 of these 118, each said)
    facts = [f for f in found if f.note == FACTS]
    assert len(facts) <= 3 and all(not f.questions for f in facts)
    assert sum(n == 0 for n in counts) - len(facts) <= 0.16 * len(counts)
