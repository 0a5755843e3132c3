"""What a precision filter sees of one candidate question: the claim it is about, the
framing it is asked in, the flaws the well-formedness check finds, the shape of the
question itself and what kind of text it comes from.

Each feature is meant to show one way strict raters refused a question: a commonplace
or peripheral claim (the claim ranker's score and the claim's place in the argument), a
view the speaker reports rather than holds (attribution cues in the claim's sentence, a
claim of the message a reply answers), plain facts of an encyclopedia passage (dates,
no first or second person in the text), the figures framing on a claim with no figure,
and garbled copies (a date in brackets, a pronoun whose referent stays behind, a
vocative, a carried connective, a quotation cut short).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from maieutic.language.claims import Reading
from maieutic.tasks.cqs.claim_ranker import FEATURES as CLAIM_FEATURES
from maieutic.tasks.cqs.claim_ranker import claim_features
from maieutic.tasks.cqs.framings import FRAMINGS

FLAWS = (
    "repeated-phrase",
    "fragment",
    "quoted-non-claim",
    "speaker-label",
    "past-as-prediction",
    "foreign-script",
    "casing",
    "punctuation",
    "article",
)
"""The well-formedness flaws the shipped filter was trained on. Checks added since
(``maieutic.language.wellformed.FLAWS`` holds them all) are no features of it: a
candidate they flag is never chosen, whatever the filter says, and the filter keeps the
figures it was trained with until it is trained again with them."""
FAMILIES = tuple(dict.fromkeys(f.family or f.name for f in FRAMINGS))
"""The framing families, in the order of ``maieutic.tasks.cqs.framings.FRAMINGS``."""

_NUMBER = re.compile(r"\d|\b(?:percent|half|third|quarter|million|billion|thousand)\b", re.I)
_YEAR = re.compile(r"\b(?:1[5-9]|20)\d\d\b")
_BRACKETED = re.compile(r"\([^)]*\)")
_PRONOUN = re.compile(r"\b(?:it|its|them|they|their|he|him|his|she|her|this|these|those)\b", re.I)
_VOCATIVE = re.compile(r",\s+[A-Z][a-z]+\s*\?$")
_CONNECTIVE = re.compile(
    r"\bthat,?\s+(?:therefore|so|and|but|also|however|thus|then|in addition|moreover)\b", re.I
)
_ATTRIBUTION = re.compile(
    r"\b(?:says?|said|claims?|claimed|argues?|argued|believes?|believed|thinks?|thought|"
    r"according to|some people|many people|people say|it has been|you say|you said|"
    r"you claim|you think|supposedly|so-called)\b",
    re.I,
)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|me|my|we|our|us)\b", re.I)
_SECOND_PERSON = re.compile(r"\b(?:you|your)\b", re.I)
_WORD = re.compile(r"[A-Za-z']+")

QUESTION_FEATURES = (
    "key_phrase",
    "claim_score",
    "claim_rank",
    "prior",
    *(f"family_{f}" for f in FAMILIES),
    "n_flaws",
    *(f"flaw_{f}" for f in FLAWS),
    "q_words",
    "q_log_words",
    "claim_number",
    "figures_without_number",
    "q_year",
    "q_bracketed",
    "q_pronouns",
    "q_vocative",
    "q_connective",
    "q_quotes",
    "attribution",
    "text_first_person",
    "text_second_person",
    "text_claims",
    "text_sentences",
    "text_speaker_named",
    "text_years",
)
FEATURES = tuple(f"claim_{name}" for name in CLAIM_FEATURES) + QUESTION_FEATURES
"""Every feature, in the order of a row."""


def _share(pattern: re.Pattern, text: str) -> float:
    words = _WORD.findall(text)
    return len(pattern.findall(text)) / max(len(words), 1)


def text_features(reading: Reading, text: str) -> dict[str, float]:
    """What kind of text this is: an argument someone makes, or a passage of facts."""
    return {
        "text_first_person": _share(_FIRST_PERSON, text),
        "text_second_person": _share(_SECOND_PERSON, text),
        "text_claims": math.log1p(len(reading.claims)),
        "text_sentences": math.log1p(reading.n_sentences),
        "text_speaker_named": float(bool(reading.speaker_label)),
        "text_years": _share(_YEAR, text) * 100,
    }


def candidate_rows(
    reading: Reading,
    text: str,
    candidates: Sequence,
    *,
    claim_scores: np.ndarray,
    prior,
) -> np.ndarray:
    """One row of ``FEATURES`` per scored candidate (``claims_generator.Scored``)."""
    claims = claim_features(reading) if reading.claims else np.zeros((0, len(CLAIM_FEATURES)))
    order = np.argsort(-claim_scores) if len(claim_scores) else np.zeros(0, dtype=int)
    rank = {int(i): r for r, i in enumerate(order)}
    shared = text_features(reading, text)
    rows = []
    for scored in candidates:
        cand = scored.candidate
        question = cand.question
        on_claim = cand.claim >= 0
        claim = reading.claims[cand.claim] if on_claim else None
        codes = {str(f).split(":", 1)[0] for f in scored.flaws} & set(FLAWS)
        words = len(question.split())
        number = float(bool(claim and _NUMBER.search(claim.text)))
        row = {
            "key_phrase": float(not on_claim),
            "claim_score": float(claim_scores[cand.claim]) if on_claim else 0.0,
            "claim_rank": float(rank.get(cand.claim, len(rank))) if on_claim else 0.0,
            "prior": float(prior(cand.framing)),
            **{f"family_{f}": float(cand.framing == f) for f in FAMILIES},
            "n_flaws": float(sum(str(f).split(":", 1)[0] in FLAWS for f in scored.flaws)),
            **{f"flaw_{f}": float(f in codes) for f in FLAWS},
            "q_words": float(words),
            "q_log_words": math.log1p(words),
            "claim_number": number,
            "figures_without_number": float(cand.framing == "figures" and not number),
            "q_year": float(bool(_YEAR.search(question))),
            "q_bracketed": float(bool(_BRACKETED.search(question))),
            "q_pronouns": float(len(_PRONOUN.findall(claim.text if claim else question))),
            "q_vocative": float(bool(_VOCATIVE.search(question))),
            "q_connective": float(bool(_CONNECTIVE.search(question))),
            "q_quotes": float(question.count('"') + question.count("“")),
            "attribution": float(bool(claim and _ATTRIBUTION.search(claim.source))),
            **shared,
        }
        base = claims[cand.claim] if on_claim else np.zeros(len(CLAIM_FEATURES))
        rows.append([*base, *(row[name] for name in QUESTION_FEATURES)])
    return np.asarray(rows, dtype=float).reshape(len(candidates), len(FEATURES))
