"""What "they" or "it" at the head of a clause stands for, when the sentences just
before say it plainly.

Debate turns and forum posts argue with pronouns ("Muslim communities … They're on the
front lines"); a question about such a clause must name what the pronoun names, or it
cannot be asked at all. The rule is deliberately narrow: a subject "they" or "it", and
a noun phrase of the one or two sentences before that agrees in number, is no pronoun,
no person, no date or figure, and holds no pronoun of its own. The nearest such phrase
is taken only when it is the only one (two candidates: no guess). "It is …" ("it's
disgraceful", "it is a great thing") usually stands for a whole situation, not a
thing, and is left alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from maieutic.language.restate import render
from maieutic.language.word_lists import words

if TYPE_CHECKING:  # spaCy loads only when a parser runs
    from spacy.tokens import Span, Token

_ROLES = ("nsubj", "nsubjpass", "dobj", "pobj", "attr")
_NOT_THINGS = {"PERSON", "DATE", "TIME", "CARDINAL", "MONEY", "PERCENT", "QUANTITY", "ORDINAL"}
_VAGUE_HEADS = words(
    """one, thing, things, lot, lots, way, kind, sort, part, bit, time, times, people,
    guys, folks, everything, something"""
)
_CLITICS = {
    "'re": "are",
    "’re": "are",
    "'s": "is",
    "’s": "is",
    "'ve": "have",
    "’ve": "have",
    "'ll": "will",
    "’ll": "will",
    "'d": "would",
    "’d": "would",
}
MAX_WORDS = 6
_QUANTIFIERS = words("no, every, each, any, neither, either")


def _candidates(sentence: Span, plural: bool) -> list[Span]:
    """Noun phrases of ``sentence`` that "they" (``plural``) or "it" could stand for,
    subjects first, then the rest, each group nearest first."""
    found = []
    for chunk in sentence.noun_chunks:
        root = chunk.root
        if root.dep_ not in _ROLES or root.pos_ not in ("NOUN", "PROPN"):
            continue
        if (root.tag_ in ("NNS", "NNPS")) != plural or root.lower_ in _VAGUE_HEADS:
            continue
        if root.ent_type_ in _NOT_THINGS or any(t.pos_ == "PRON" for t in chunk):
            continue
        if any(c.dep_ == "conj" for c in root.children):
            continue  # "farmers and bankers": "they" may be either, or both
        if len(chunk) > MAX_WORDS or any(t.like_num for t in chunk):
            continue
        found.append(chunk)
    subjects = [c for c in found if c.root.dep_ in ("nsubj", "nsubjpass")]
    others = [c for c in found if c not in subjects]
    return list(reversed(subjects)) + list(reversed(others))


_SITUATION_VERBS = words("be, seem, sound, look, appear, stand, follow, turn, happen, remain")


def _stands_for_a_situation(pronoun: Token) -> bool:
    """ "It is …" and "it's …" usually stand for what was just said, not a thing; "it
    stands to reason", "it follows", "it turns out" stand for nothing at all."""
    return pronoun.lower_ == "it" and pronoun.head.lemma_ in _SITUATION_VERBS


def resolve(pronoun: Token, before: Sequence[Span]) -> dict[int, str]:
    """Rewrites (token index → text) naming what subject ``pronoun`` stands for, the
    contracted verb after it spelt out ("They're" → "Muslim communities are"); empty
    when the sentences ``before`` (nearest last) do not say it plainly."""
    lower = pronoun.lower_
    if lower not in ("they", "it") or pronoun.dep_ not in ("nsubj", "nsubjpass"):
        return {}
    if _stands_for_a_situation(pronoun):
        return {}
    for sentence in reversed(list(before)[-2:]):
        candidates = _candidates(sentence, plural=lower == "they")
        if not candidates:
            continue
        if len({c.root.lemma_.lower() for c in candidates}) > 1:
            return {}  # two things it could stand for: no guess
        chunk = candidates[0]
        if any(t.dep_ == "det" and t.lower_ in _QUANTIFIERS for t in chunk):
            return {}  # "no life … It doesn't exist": "it" cannot be "no life"
        clause = {t.lemma_.lower() for t in pronoun.head.subtree}
        if chunk.root.lemma_.lower() in clause:
            return {}  # "they build plants" → "plants build plants": the clause names another
        words = render(list(chunk))
        if chunk[0].is_sent_start and chunk[0].pos_ != "PROPN":
            words = words[0].lower() + words[1:]  # "The tax …" → "the tax"
        out = {pronoun.i: words}
        following = pronoun.nbor() if pronoun.i + 1 < len(pronoun.doc) else None
        if following is not None and following.text.lower() in _CLITICS:
            spelt = _CLITICS[following.text.lower()]
            after = following.nbor() if following.i + 1 < len(pronoun.doc) else None
            if spelt in ("is", "would") and after is not None and after.tag_ == "VBN":
                spelt = "has" if spelt == "is" else "had"  # "it's been", "they'd gone"
            out[following.i] = spelt
        return out
    return {}
