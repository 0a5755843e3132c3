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
