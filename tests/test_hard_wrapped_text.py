"""Plain text cut at a fixed width is reflowed before it is read; transcripts keep one
utterance per line; document questions are about noun phrases, never a connective."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from maieutic.ask.document_questions import document_questions
from maieutic.language import syntax
from maieutic.language.claims import read_claims

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "cqs"

PARAGRAPH = (
    "Some phone makers lock the bootloader so that owners cannot install or run modified "
    "firmware on the devices they bought, although the makers themselves can do so. "
    "This defeats the purpose of letting owners repair their own phones. Therefore, the "
    "new rules require every maker to publish an unlock procedure within two years."
)


def test_a_hard_wrapped_paragraph_is_reflowed_into_sentences():
    wrapped = textwrap.fill(PARAGRAPH, width=72)
    assert wrapped.count("\n") >= 3
    assert not syntax.lines_are_sentences(wrapped)
    chunks = syntax.sentence_chunks(wrapped)
    assert chunks == [PARAGRAPH]  # one paragraph, its lines joined
    for claim in read_claims(wrapped).claims:
        # no claim ends where a line of the file ended
        assert not any(claim.text.endswith(line.split()[-1]) for line in wrapped.splitlines()[:-1]
                       if not line.rstrip().endswith((".", ","))), claim.text  # fmt: skip


def test_the_wrap_is_found_at_any_common_width():
    for width in (60, 72, 80, 100):
        lines = textwrap.fill(PARAGRAPH * 2, width=width).splitlines()
        assert syntax.hard_wrapped(lines), width


def test_transcript_lines_are_not_taken_for_a_wrap():
    transcript = (
        "CLINTON: we need to invest in infrastructure\n"
        "and that means jobs, good jobs, in every part of the country, from the cities to "
        "the small towns that have been left behind for far too long\n"
        "That's what I've proposed\n"
        "Donald has no plan for any of it"
    )
    assert syntax.lines_are_sentences(transcript)
    assert not syntax.hard_wrapped(transcript.splitlines())


@pytest.mark.skipif(not SHARED.exists(), reason="needs ../shared/data")
def test_no_released_intervention_is_taken_for_a_wrapped_file():
    seen = 0
    for name in ("validation-dev.json", "test-dev.json"):
        for key, item in json.loads((SHARED / name).read_text()).items():
            lines = [line for line in item["intervention"].splitlines() if line.strip()]
            assert not syntax.hard_wrapped(lines), key
            seen += 1
    assert seen > 100


DOCUMENT = "\n\n".join(
    [
        "Preamble",
        "The council runs the city's libraries. Therefore, the council sets their hours.",
        "For example, giving the branches longer hours costs money, and giving them "
        "shorter hours costs readers.",
        "Version two of the plan moves the study desks and the archives into one "
        "building; the archives need dry air.",
    ]
)


def test_document_questions_ask_about_noun_phrases():
    questions = document_questions(DOCUMENT)
    assert questions, questions
    banned = ("Therefore", "giving", "example", "Version", "For")
    for question in questions:
        topic = question.removeprefix("What does the text say about ").rstrip("?")
        assert topic.split()[0] not in banned, question
    assert "What does the text say about the archives?" in questions  # the recurring noun


def test_a_quantified_subject_is_not_asked_to_be_defined():
    questions = document_questions("Some devices are designed to stop owners from repairing them.")
    assert questions != ["What are some devices?"]


def test_a_rule_is_not_a_generalisation():
    [claim, *_] = read_claims("Everyone is permitted to copy and share this document.").claims
    assert "generalisation" not in claim.kinds
    [claim, *_] = read_claims("Every parent agrees that the school day starts too early.").claims
    assert "generalisation" in claim.kinds
