"""Whether a text argues at all: the share of stance words, the threshold, the length
under which a text is not judged, and the claims generator's abstention on facts."""

from __future__ import annotations

from maieutic.language.stance import MIN_WORDS, stance_share, states_facts
from maieutic.tasks.cqs.candidate_filter import FACTS
from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator

PASSAGE = (
    "The bridge was opened in 1932 and carries six lanes of traffic across the river. "
    "It was designed by a local engineer, built from steel made in the region, and "
    "painted grey in 1950. A second span was added in 1971 to carry the railway line "
    "to the northern suburbs."
)
ARGUMENT = (
    "The city should close the old bridge to cars. It is falling apart, and repairs "
    "would cost more than a new one. Cyclists would benefit, and the traffic would move "
    "to the ring road, which has room for it. I think the council is wrong to wait."
)


def test_the_share_counts_whole_words_and_phrases_in_any_case():
    # "Should", "we", "need to", "but" and "because": 5 of 10 words; "butter" is none
    text = "Should we need to go? But butter, because lunch is at noon."
    assert stance_share(text) == 5 / len(text.split())


def test_a_passage_of_facts_is_told_from_an_argument():
    assert len(PASSAGE.split()) >= MIN_WORDS and len(ARGUMENT.split()) >= MIN_WORDS
    assert states_facts(PASSAGE) and not states_facts(ARGUMENT)
    assert not states_facts("It reflects a cavalier attitude.")  # too short to judge


def test_the_claims_generator_abstains_on_facts_and_says_so():
    generator = ClaimsCQGenerator()
    facts = generator.questions_for(PASSAGE)
    assert facts.questions == [] and facts.note == FACTS
    assert facts.candidates  # what it would have asked stays readable
    assert generator.questions_for(ARGUMENT).questions


def test_a_speakers_turn_in_a_debate_argues_even_when_it_recites_facts():
    from maieutic.language.stance import speaker_turn, states_facts

    recital = (
        "most airlines pay flight crew members scheduled flight time or actual time away "
        "from the gate whichever is more. If a flight is scheduled for 2 hours block to "
        "block and it takes 3 to fly it, the crew gets 3 hours of pay for the trip."
    )
    assert states_facts(recital[0].upper() + recital[1:])  # as a passage: it states facts
    turn = f'JetJock: "{recital}"'
    assert speaker_turn(turn) and not states_facts(turn)
    # a colon in a sentence is no speaker's label
    assert not speaker_turn('The rules say one thing: "pay the crew" and nothing more.')
    assert not speaker_turn(recital)
