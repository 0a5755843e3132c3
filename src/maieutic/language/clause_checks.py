"""Whether a restated clause can stand in a question: it reads as one complete clause
on its own, refers only to what a reader of the question can identify, asserts rather
than hedges, and repeats none of the transcript's errors. Each rule was added for a
failure raters found in real output (see docs/claims.md)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from maieutic.language import syntax
from maieutic.language.clause_syntax import (
    REPORTING,
    content_lemmas,
    extraposed,
    is_finite,
    subject_of,
)
from maieutic.language.dictionary import known_words
from maieutic.language.figures import is_figure
from maieutic.language.restate import third_person_singular
from maieutic.language.word_lists import words

if TYPE_CHECKING:  # spaCy (and through it torch) loads only when a parser runs
    from spacy.tokens import Token

MIN_CONTENT_WORDS = 2
"""A claim with fewer content words ("we need heart") says too little to challenge."""

BAD_END = {"DT", "IN", "CC", "TO", "WDT", "WP", "PRP$", "MD", "POS", "HYPH"}

DISFLUENCY = re.compile(r"\b(?:the|a|an|of|on|in|to|and|that)\s*,|\s-\s|[–—]|\.\.\.|…")


@lru_cache(maxsize=8192)
def reads_as_clause(text: str) -> bool:
    """Whether a restated clause, parsed on its own, is one complete declarative: a
    finite verb with its subject first, no fragment the parser could not attach, no
    disfluency ("on the, still on"), enough content words, and no dangling end."""
    if DISFLUENCY.search(text):
        return False
    doc = syntax.nlp()(text)
    words = [t for t in doc if not t.is_punct]
    if not words or words[-1].tag_ in BAD_END or words[-1].lemma_ in REPORTING:
        return False
    if len(content_lemmas(doc)) < MIN_CONTENT_WORDS and not any(is_figure(t) for t in doc):
        return False
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1 or any(t.dep_ == "dep" for t in doc):
        return False
    root = roots[0]
    return subject_of(root) is not None and is_finite(root)


AMBIGUOUS = words(
    """he, she, him, his, her, hers, they, them, their, theirs, you, your, yours, it, its,
    this, that, these, those"""
)

HEDGES = words(
    """maybe, perhaps, probably, possibly, supposedly, apparently, reportedly, allegedly,
    seemingly, may, might"""
)

HEDGING_VERBS = {"seem", "appear"}


def unclear_reference(tokens: list[Token], rewrites: dict[int, str], head: Token) -> bool:
    """Whether the clause keeps a pronoun a reader of the question alone could not resolve
    ("he started his business", "they're using our country", "solve that for us");
    "we" and "our" pass (the speaker's side), and so does the "it" of "it's time that…"."""
    subject = subject_of(head)
    nominal_subject = (subject is not None and subject.pos_ in ("NOUN", "PROPN")) or (
        subject is not None and subject.lower_ in ("everyone", "everybody", "nobody", "anyone")
    )
    for token in tokens:
        if token.i in rewrites or token.lower_ not in AMBIGUOUS:
            continue
        if token.tag_ == "PRP$" and nominal_subject and subject.i < token.i:
            continue  # "everyone … has released their tax returns": theirs is the subject's
        if bound_in_clause(token, tokens):
            continue  # "the wealthy pay their fair share": the clause names them
        if token.tag_ in ("PRP", "PRP$"):
            if token.lower_ == "it" and token.head == head and extraposed(head):
                continue
            if token.lower_ == "it" and token.dep_ in ("dobj", "pobj"):
                continue  # "deal with it": the clause says what it is about
            return True
        if token.tag_ == "DT" and token.dep_ in ("nsubj", "nsubjpass", "dobj", "pobj", "attr"):
            return True  # "that" standing for something said before
        if token.lower_ in ("that", "those") and token.dep_ == "det":
            return True  # "that bracket", "that help": which one?
    return False


_PLURAL = {"they", "them", "their", "theirs"}
_SINGULAR_THING = {"it", "its"}
_NOMINAL_ROLES = ("nsubj", "nsubjpass", "dobj", "pobj", "attr")


def _is_nominal(token: Token) -> bool:
    """A noun phrase's head that a later pronoun can stand for: a noun or name, or a
    nominalised adjective ("the wealthy", "the poor")."""
    if token.pos_ in ("NOUN", "PROPN"):
        return True
    return token.pos_ == "ADJ" and any(
        c.lower_ == "the" and c.dep_ == "det" for c in token.children
    )


def bound_in_clause(pronoun: Token, tokens: list[Token]) -> bool:
    """Whether ``pronoun`` stands for a noun phrase earlier in the same clause: the
    nearest preceding nominal in a subject or object role agrees with it in number
    ("the wealthy … their", "the law … its", but not "the law … their")."""
    lower = pronoun.lower_
    if lower not in _PLURAL and lower not in _SINGULAR_THING:
        return False
    before = [t for t in tokens if t.i < pronoun.i and t.dep_ in _NOMINAL_ROLES and _is_nominal(t)]
    if not before:
        return False
    nearest = before[-1]
    plural = nearest.tag_ in ("NNS", "NNPS") or nearest.pos_ == "ADJ"
    if lower in _PLURAL:
        return plural
    return not plural and nearest.ent_type_ not in ("PERSON", "NORP")


PROFANITY = words(
    """shit, fuck, fucking, fucked, crap, damn, bullshit, ass, asshole, bitch, piss,
    pissed, hell"""
)


def copied_errors(tokens: list[Token]) -> str | None:
    """What in the clause a question should not repeat, if anything: a word no dictionary
    knows (a typo: "servie", "wtih", "deplaneing"), profanity, or a word in capitals for
    emphasis ("IS a viable option", "ALL AIRLINES")."""
    known = known_words()
    for t in tokens:
        if t.lower_ in PROFANITY:
            return f"profanity {t.text!r}"
        if t.is_alpha and t.text.isupper() and len(t) > 1 and (t.is_stop or len(t) > 5):
            return f"capitals for emphasis {t.text!r}"
        if (
            t.is_alpha
            and t.text.islower()
            and len(t) > 2
            and not t.is_stop
            and t.lower_ not in known
            and t.lemma_.lower() not in known
        ):
            return f"unknown word {t.text!r}"
    return None


def unhedge(head: Token) -> dict[int, str]:
    """Rewrites stating what "X seems to go too far" claims: "X goes too far" (a
    question asks about the claim, not about how it seemed); present tense only."""
    if head.lemma_ not in HEDGING_VERBS or head.tag_ not in ("VBZ", "VBP"):
        return {}
    xcomp = next((c for c in head.children if c.dep_ == "xcomp" and c.tag_ == "VB"), None)
    to = (
        next((c for c in xcomp.children if c.dep_ == "aux" and c.lower_ == "to"), None)
        if (xcomp is not None)
        else None
    )
    if xcomp is None or to is None:
        return {}
    if any(c.dep_ in ("oprd", "acomp", "attr") for c in head.children):
        return {}  # "it seems arbitrary to ban X": the verb is not what seems
    verb = xcomp.text
    if head.tag_ == "VBZ":
        verb = third_person_singular(verb)
    elif xcomp.lemma_ == "be":
        verb = "are"
    return {head.i: "", to.i: "", xcomp.i: verb}


HEDGE_ADVERBS = HEDGES - {"may", "might"}
"""Hedges that can be lifted out of a clause and carried by the question instead
("NAFTA is maybe the worst deal" → "How sure can we be that NAFTA is the worst deal…");
a hedging modal ("may", "might") shapes the verb and cannot."""


def lifted_hedges(tokens: list[Token]) -> set[int]:
    """The adverbial hedges of a clause, when they are its only hedges (token indexes)."""
    found = [t for t in tokens if t.lower_ in HEDGE_ADVERBS and t.dep_ == "advmod"]
    if not found:
        return set()
    # with its own degree word ("quite possibly", "most likely")
    adverbs = {d.i for t in found for d in t.subtree}
    rest = [t for t in tokens if t.i not in adverbs]
    return set() if hedged(rest) else adverbs


def hedged(tokens: list[Token]) -> bool:
    """A clause the speaker does not quite assert ("maybe the ban could…", "weight seems
    to be the issue", "Obama reportedly considered…", "I may be missing…"): a question
    asking for proof of it asks for proof of a hedge."""
    return any(
        (t.lower_ in HEDGES and t.dep_ in ("advmod", "aux"))
        or (
            t.lemma_ in HEDGING_VERBS
            and t.tag_ not in ("VBZ", "VBP")  # those are restated without the hedge
            and any(c.dep_ == "xcomp" for c in t.children)
        )
        for t in tokens
    )
