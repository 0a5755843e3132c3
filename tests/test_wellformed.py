"""The well-formedness check: the real failures the issue quotes, each flaw on its own,
and released questions (people's Useful references should almost all pass)."""

from __future__ import annotations

import json

import pytest

from maieutic.language.wellformed import FLAWS, check_question, is_well_formed, speaker_labels


def codes(question: str, text: str | None = None) -> set[str]:
    return {f.code for f in check_question(question, text)}


# Real output of the old template generator on validation interventions, and the
# released FOCUS wording: each must be refused for the reason given.
REAL_FAILURES = [
    (
        'Is "that is not the right temperament to be commander-in- chief, to be taunted" a '
        'reliable sign of "that is not the right temperament to be commander-in- chief, to be '
        'taunted"?',
        {"repeated-phrase", "punctuation"},
    ),
    ('Is Mp an expert in the field that "that the bank can lend it on" belongs to?', {"fragment"}),
    ('What evidence supports the claim that "leave my peanuts alone"?', {"quoted-non-claim"}),
    (
        'How likely is it that "he should have produced it a long time before" will really happen?',
        {"fragment"},
    ),
    (
        "Why do you think That is the only basis of a nation that exists. is true in all "
        "situations?",
        {"casing", "punctuation"},
    ),
]


@pytest.mark.parametrize(("question", "expected"), REAL_FAILURES)
def test_the_real_failures_are_refused_for_their_reasons(question, expected):
    assert expected <= codes(question, 'MP: "the bank lends"')


def test_a_recased_speaker_label_is_not_a_name():
    text = 'MP: "We should lend more."'
    assert "speaker-label" in codes("Is Mp an expert on lending?", text)
    # a label with digits or a cut hyphen never reads as a name
    assert "speaker-label" in codes("Is Citizen-s right about taxes?", 'Citizen-s: "x"')
    # people's own references call "howie" Howie and "JL" JL: accepted
    assert "speaker-label" not in codes("How does Howie know this?", 'howie: "x"')
    assert "speaker-label" not in codes("Is JL oversimplifying the rates?", 'JL: "x"')
    assert speaker_labels('CLINTON: "a"\nTRUMP: "b"') == {"CLINTON", "TRUMP"}


def test_each_flaw_on_its_own():
    assert codes("what evidence shows that taxes rose?") == {"casing"}
    assert codes("What evidence shows that taxes rose") == {"punctuation"}
    assert codes("What evidence shows that taxes rose ?") == {"punctuation"}
    assert codes("Why did ALL AIRLINES raise their fares?") == {"casing"}
    assert codes("Is the claim (about taxes true?") == {"punctuation"}
    assert codes("Почему налоги выросли?") == {"foreign-script"}
    assert codes('How likely is it that "the senator voted for the bill" will really happen?') == {
        "past-as-prediction"
    }
    assert codes('What evidence supports the claim that "because taxes rose"?') == {"fragment"}
    assert codes('What evidence supports the claim that "taxes rose in the"?') == {"fragment"}
    assert codes('What evidence supports the claim that "higher taxes for all"?') == {"fragment"}
    assert codes('What evidence supports the claim that "Hillary: we will win"?') == {
        "quoted-non-claim"
    }
    assert codes("Is it true that the new tax will cut jobs if the new tax will cut jobs?") == {
        "repeated-phrase"
    }


def test_what_strict_raters_found_unfit_in_copied_claims():
    # each from the rated development candidates (benchmarks/rating/r47), both raters
    # calling it unfit to hand out
    assert codes(
        "How do we know that Jennifer Nettles (born September 12, 1974) is an American singer?"
    ) == {"copied-aside"}
    assert codes("Is it true that the Milk Lake () is a lake in Taipei?") == {"copied-aside"}
    assert codes("Is it true that photons are exchange particles.[Note 4?") >= {"copied-aside"}
    assert codes("Does the fact that Ron is is gaining momentum show that he will win?") == {
        "doubled-word"
    }
    assert codes("How do we know that as a response, Shirley left garrisons at Oswego?") == {
        "carried-connective"
    }
    assert codes("How do we know that e.g. arresting for possession should stop?") == {
        "carried-connective"
    }
    # and what they did not: a bracket without a figure, "that that", "so many"
    assert is_well_formed("What does GDP (gross domestic product) measure here?")
    assert is_well_formed("Is it fair to say that that claim holds for every city?")
    assert is_well_formed("What evidence shows that so many people agree?")


def test_well_formed_questions_pass():
    for question in [
        "What evidence shows that the new tax will cut jobs?",
        'How does Clinton define "working more closely" with allies?',
        # a quoted phrase inside a full clause is not a quoted claim
        'What is the evidence that Muslim communities are "on the front lines"?',
        "How likely is it that the ban will save lives, and what could prevent it?",
        "Is it true that U.S. troops left Iraq in 2011?",
    ]:
        assert is_well_formed(question), (question, check_question(question))


def test_every_code_is_declared():
    found = set()
    for question, _ in REAL_FAILURES:
        found |= codes(question, 'MP: "x"')
    assert found <= set(FLAWS)


@pytest.mark.slow
def test_released_useful_references_almost_all_pass(cqs_dev):
    data = json.loads(cqs_dev.read_text())
    useful = [
        (q["cq"], item["intervention"])
        for item in data.values()
        for q in item["cqs"]
        if q["label"] == "Useful"
    ]
    passed = sum(is_well_formed(q, text) for q, text in useful)
    # measured: 0.995 of 2,008; the few refused are truly broken ("…?** Is MR's…")
    assert passed / len(useful) >= 0.98


def test_evaluate_cqs_reports_a_well_formed_rate_and_flags_without_changing_labels(cli, tmp_path):
    from maieutic.samples import sample_path

    data = sample_path("cqs/sample_dataset.json")
    sub = json.loads(sample_path("cqs/sample_submission.json").read_text())
    first = next(iter(sub.values()))
    first["cqs"][0]["cq"] = 'What evidence supports the claim that "because of the lanes"?'
    path = tmp_path / "s.json"
    path.write_text(json.dumps(sub))
    out = tmp_path / "r.json"
    result = cli("evaluate", "cqs", "--data", data, path, "--out", out)
    assert result.code == 0, result.err
    [run] = json.loads(out.read_text())["results"]
    questions = [q for item in run["items"] if isinstance(item["cqs"], list) for q in item["cqs"]]
    flagged = [q for q in questions if not q["well_formed"]]
    assert [q["cq"] for q in flagged][:1] == [first["cqs"][0]["cq"]]
    assert flagged[0]["form_flaws"][0].startswith("fragment:")
    rate = run["summary"]["well_formed_rate"]
    assert rate == sum(q["well_formed"] for q in questions) / len(questions) < 1
