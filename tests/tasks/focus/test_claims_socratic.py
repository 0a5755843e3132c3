"""Socratic questions from the text's claims name the weakness the claim has, in the
shape its type takes for that claim."""

from __future__ import annotations

from maieutic.language.claims import read_claims
from maieutic.tasks.focus.claims_focus import labels_for


def labels(text: str) -> list[tuple[str, str]]:
    return [(x.type, x.question) for x in labels_for(text, read_claims(text))]


def test_a_reason_given_for_a_conclusion_is_probed_as_weak_evidence_for_it():
    found = labels(
        "CLINTON: Pollution causes asthma in children. That's why we must ban diesel cars "
        "from the centre."
    )
    assert found[0] == (
        "WE",
        "Is the fact that pollution causes asthma in children enough to show that we must ban "
        "diesel cars from the centre?",
    )
    # the reason is a causal claim of its own: probed as one, the conclusion not twice
    assert found[1][0] == "QCE" and "pollution causes asthma" in found[1][1]


def test_a_forecast_gets_the_temporal_shape_and_a_plain_past_fact_never_does():
    forecast = labels("X: Prices will fall by a fifth next year.")
    assert forecast == [
        (
            "TC",
            "What could change so that it would no longer be true that prices will fall by "
            "a fifth next year?",
        )
    ]
    assert all(t != "TC" for t, _ in labels("X: Prices fell by a fifth last year."))


def test_a_figure_is_asked_for_its_source():
    [(type_id, question)] = labels("TRUMP: We pay approximately 73 percent of the cost of NATO.")
    assert type_id == "LE" and question.startswith("Where do the figures in the claim that")


def test_a_judgement_is_put_to_someone_who_does_not_share_the_view():
    [(type_id, question)] = labels("X: Raising the minimum wage is a terrible idea.")
    assert type_id == "BS"
    assert question == (
        "Would someone who does not share the speaker's views agree that raising the "
        "minimum wage is a terrible idea?"
    )


def test_a_text_of_plain_assertions_gets_the_first_critical_question_typed_by_its_framing():
    from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator

    text = "The terms were laid out at the meeting last week. We have created a movement."
    reading = read_claims(text)
    assert all(c.kinds == ("assertion",) for c in reading.claims)  # no type of their own
    [label] = labels_for(text, reading)
    first = ClaimsCQGenerator().questions_for(text).questions[0]
    assert first.startswith("What evidence shows that")  # asks for evidence: Lacks Evidence
    assert (label.type, label.question) == ("LE", first)
    assert text[label.start : label.end] == label.text and label.text.lower() in first.lower()


def test_a_text_of_facts_gets_no_socratic_question_and_the_note_says_why():
    from maieutic.registry import create
    from maieutic.tasks.cqs.candidate_filter import FACTS
    from maieutic.tasks.focus.type_labels import FocusItem, FocusSet

    passage = (
        "The bridge was opened in 1932 and carries six lanes of traffic across the river. "
        "It was designed by a local engineer, built from steel made in the region, and "
        "painted grey in 1950. A second span was added in 1971 to carry the railway line "
        "to the northern suburbs."
    )
    dataset = FocusSet(
        items={"p": FocusItem(id="p", argument=passage, category=None)}, source="<t>", name="t"
    )
    [outcome] = create("generator", task="focus", name="claims").generate(dataset).outcomes
    assert outcome.labels == [] and outcome.problems == [FACTS]
