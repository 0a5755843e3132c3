"""Socratic questions that restate their span cleanly.

The typology's templates put the span in a blank word for word, as FOCUS's released
questions do ("Why do you think That is the only basis of a nation that exists. is
true in all situations?"). A person reading the question needs the span restated: a
clause becomes a "that"-clause in the author's second person ("Are you taking for
granted that you …?"), without its capital, final stop or leading connective; a term
stays a quoted phrase. When the span is no clause, the smallest clause of its sentence
that holds it is restated instead; when no clause can be read, no question is
written (the template's word-for-word wording is what this replaces).
"""

from __future__ import annotations

import re

from maieutic.language import syntax
from maieutic.language.claim_kinds import claim_kinds
from maieutic.language.clause_checks import (
    copied_errors,
    hedged,
    reads_as_clause,
    unclear_reference,
)
from maieutic.language.clause_syntax import (
    LEADING_PHRASE,
    is_finite,
    subject_of,
    tense_of,
    trim,
)
from maieutic.language.restate import addressee_rewrites, lower_first, render
from maieutic.language.wellformed import check_question
from maieutic.language.word_lists import words

CLAUSE_TEMPLATES: dict[str, str] = {
    "OSP": "How might someone with a different stake see the claim that {claim}?",
    "TC": "Would it still be true that {claim} if circumstances changed over time?",
    "VAT": "What exactly do you mean when you say that {claim}?",
    "OG": "Is it true in every case that {claim}, or only in some?",
    "IE": "Are you taking for granted that {claim}?",
    "BS": "Is your view that {claim} based on personal experience or preference rather "
    "than on facts?",
    "QCE": "Is it really the case that {claim}, or could something else explain it?",
    "CF": "Could cause and effect be the other way round in the claim that {claim}?",
    "LE": "What data or examples show that {claim}?",
    "WE": "Is the fact that {claim} strong enough evidence for what you conclude from it?",
}
"""One question per type around a restated clause; the wording is maieutic's own,
following each type's definition (FOCUS, Table 12)."""
PHRASE_TEMPLATE = (
    'What exactly do you mean by "{phrase}", and would a general reader take it the same way?'
)
_LEADING = re.compile(r"^(?:and|but|or|so|because|since|as|though|although|while|that)\s+", re.I)
MAX_WORDS = 30


FITTING_KINDS: dict[str, set[str]] = {
    "OG": {"generalisation"},
    "QCE": {"causal"},
    "CF": {"causal"},
    "BS": {"evaluation"},
    "WE": {"statistic", "authority", "experience"},
    "IE": {"proposal", "evaluation", "prediction", "generalisation", "causal"},
    "TC": {"prediction", "evaluation", "generalisation", "proposal"},
    "OSP": {"proposal", "evaluation", "prediction", "causal"},
    "LE": {"statistic", "causal", "generalisation", "evaluation", "prediction"},
    "VAT": {"evaluation", "generalisation", "proposal"},
}
"""The kinds of claim each type's question fits: "true in every case" asks about a
generalisation, "something else could explain it" about a cause, and so on; a type the
cues found in a clause of another kind is not asked (a conditional is no
generalisation, a fact reported is no personal preference)."""


def fits(type_id: str, *, clause: str) -> bool:
    """Whether the restated ``clause`` makes a kind of claim the type's question fits."""
    doc = syntax.nlp()(clause)
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if not roots:
        return False
    kinds = set(claim_kinds(roots[0], list(doc), doc[:], text=clause))
    if type_id == "LE" and doc[0].lower_ in ("you", "your"):
        return False  # the author's own experience or plan: no data would show it
    if type_id in ("TC", "OSP", "IE") and tense_of(roots[0]) == "past":
        return False
    return bool(kinds & FITTING_KINDS.get(type_id, set()))


CONTESTED = words(
    """freedom, justice, fairness, equality, equity, privilege, morality, autonomy,
    democracy, liberty, dignity, discrimination, oppression, violence, abuse,
    harassment, bias, merit, wealth, poverty, rights, values, harm, fault, blame,
    responsibility, respect, success"""
)
"""Single words whose meaning people dispute; other single words ("business",
"security") are asked about only inside a phrase."""


def _plain_term(phrase: str) -> bool:
    """A phrase whose meaning a reader could dispute: not a name or an acronym ("NATO",
    "ISIS"), and a single word only when it is abstract ("freedom", "racism")."""
    doc = syntax.nlp()(phrase)
    if any(t.ent_type_ or t.pos_ == "PROPN" or t.text.isupper() or t.like_num for t in doc):
        return False
    words = [t for t in doc if t.is_alpha]
    if len(words) == 1:
        word = words[0].lower_
        return word.endswith("ism") or word in CONTESTED
    return 2 <= len(words) <= 5 and len(words) == len([t for t in doc if not t.is_punct])


def restate_clause(text: str) -> str | None:
    """``text`` as a that-clause put to its author ("I am tired" → "you are tired"), or
    None when it is not one complete clause."""
    text = _LEADING.sub("", syntax.normalise(" ".join(text.split())).strip(" \"“”'.,;:!?"))
    if not text:
        return None
    doc = syntax.nlp()(text)
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) != 1 or subject_of(roots[0]) is None or not is_finite(roots[0]):
        return None
    root, subject = roots[0], subject_of(roots[0])
    if any(c.dep_ == "mark" for c in root.children) or text.rstrip().endswith("?"):
        return None  # "If I changed my prices…" or a question: not a claim on its own
    if doc[0].tag_ in ("WRB", "WP", "WDT") or (
        doc[0].tag_ in ("VBZ", "VBP", "VBD", "MD") and doc[0].i < subject.i
    ):
        return None  # "Is there any formula…": a question without its mark
    tokens = trim(list(doc))
    if not tokens or tokens[0].i > subject.left_edge.i:
        return None
    rewrites = addressee_rewrites(tokens)
    if unclear_reference(tokens, rewrites, root) or hedged(tokens) or copied_errors(tokens):
        return None  # "they have made all the gains": who? (the author's "I" is "you")
    clause = LEADING_PHRASE.sub("", render(tokens, rewrites))
    clause = lower_first(clause, tokens[0] if tokens[0].i not in rewrites else None)
    if len(clause.split()) > MAX_WORDS or not reads_as_clause(clause):
        return None
    return clause


def containing_clause(argument: str, start: int, *, end: int) -> str | None:
    """The sentence of ``argument`` that holds the span, restated, if it is a clause."""
    for sentence in syntax.nlp()(argument).sents:  # raw text: offsets must hold
        if sentence.start_char <= start < sentence.end_char:
            return restate_clause(sentence.text)
    return None


def socratic_question(
    type_id: str, *, span: str, argument: str | None = None, start: int | None = None
) -> str | None:
    """The type's question about ``span``, restated cleanly; None when no clean wording
    exists (the caller then leaves the question out)."""
    if type_id not in CLAUSE_TEMPLATES:
        return None
    if type_id == "VAT" and len(span.split()) <= 5:
        phrase = span.strip(" \"“”'.,;:!?")
        if not _plain_term(phrase):
            return None
        question = PHRASE_TEMPLATE.format(phrase=phrase)
        return question if not check_question(question, argument) else None
    clause = restate_clause(span)
    if clause is None and argument is not None and start is not None:
        clause = containing_clause(argument, start, end=start + len(span))
    if clause is not None and fits(type_id, clause=clause):
        question = CLAUSE_TEMPLATES[type_id].format(claim=clause)
        if not check_question(question, argument):
            return question
    return None
