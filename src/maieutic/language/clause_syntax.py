"""Clause-level syntax for reading claims: subjects, tense, which tokens a restated
clause keeps, and whether a restated clause stands on its own.

These are the rules :mod:`maieutic.language.claims` applies to spaCy's dependency
parse; each says why it exists, since each was added for a failure seen in real
transcripts (a fronted object, a parenthetical "as you know", a pronoun no reader of
the question alone could resolve).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from maieutic.language.word_lists import words

if TYPE_CHECKING:  # spaCy (and through it torch) loads only when a parser runs
    from spacy.tokens import Span, Token


REPORTING = words(
    """think, believe, say, mean, know, feel, guess, suppose, argue, claim, agree, hope,
    understand, suggest, show, prove, find, determine, conclude, report, state, tell,
    realize, realise, assume, doubt, bet"""
)


OBLIGATION = {"should", "must", "ought"}


NEED_VERBS = {"need", "have"}  # need to / have to ("'ve got to": lemma "get")


FUTURE = {"will", "'ll", "wo", "shall", "could", "may", "might"}


POSSIBLE = {"would", "can", "ca", "'d"}


DISCOURSE = words(
    """well, look, now, so, again, frankly, honestly, actually, also, anyway, and, but, or,
    then, oh, yes, no, okay, ok, plus, however, still, yet, because, though, although"""
)


SELF_OR_ANAPHOR = {"i", "we", "you", "that", "this", "it", "he", "she", "they"}


LEADING_PHRASE = re.compile(
    r"^(?:(?:[a-z]+ly|further|furthermore|moreover|however|besides|anyway|plus|also|"
    r"yes|no|oh|well|so|now)\s*,\s*|"
    r"(?:in fact|of course|you know|i mean|by the way|in other words|believe me|"
    r"to be honest|at the end of the day|the fact is(?: that)?|let me tell you|"
    r"it is the case that|it's the case that|the truth is(?: that)?|"
    r"first(?:ly)?|second(?:ly)?|finally|again|look|listen)\s*,?\s+)+",
    re.IGNORECASE,
)


SUBJECTS = ("nsubj", "nsubjpass", "expl", "csubj", "csubjpass")


def subject_of(head: Token) -> Token | None:
    """The clause's subject (the parser sometimes hangs it on an auxiliary)."""
    found = next((c for c in head.children if c.dep_ in SUBJECTS), None)
    if found is None:
        for aux in (c for c in head.children if c.dep_ in ("aux", "auxpass")):
            found = next((c for c in aux.children if c.dep_ in SUBJECTS), None) or found
    return found


def is_finite(head: Token) -> bool:
    if head.tag_ in ("VBD", "VBZ", "VBP", "MD"):
        return True
    return any(
        c.dep_ in ("aux", "auxpass") and c.tag_ in ("VBD", "VBZ", "VBP", "MD")
        for c in head.children
    )


def tense_of(head: Token) -> str:
    auxes = [c for c in head.children if c.dep_ in ("aux", "auxpass")]
    words = {a.lower_.replace("’", "'") for a in auxes}
    if words & FUTURE or ("going" in words and any(c.lower_ == "to" for c in head.children)):
        return "future"
    if head.lower_ == "going" and any(c.dep_ == "xcomp" for c in head.children):
        return "future"
    if words & POSSIBLE:
        return "possible"
    if modal_action(head) is not None:
        return "present"  # an obligation ("we've got to go") is about now and later
    tags = {head.tag_} | {a.tag_ for a in auxes}
    if "VBD" in tags or (head.tag_ == "VBN" and words & {"has", "have", "'ve", "had", "'d"}):
        return "past"
    return "present"


def block(token: Token) -> set[int]:
    """A subtree to leave out, with the comma that set it off."""
    left, right = token.left_edge.i, token.right_edge.i
    doc = token.doc
    ids = set(range(left, right + 1))
    if right + 1 < len(doc) and doc[right + 1].text == ",":
        ids.add(right + 1)
    elif left > 0 and doc[left - 1].text == ",":
        ids.add(left - 1)
    return ids


def is_aside(token: Token) -> bool:
    """A parenthetical aside: "as you know", "I think", "you see"."""
    subject = subject_of(token)
    marked_as = any(g.dep_ == "mark" and g.lower_ == "as" for g in token.children)
    return (token.dep_ == "advcl" and marked_as) or (
        token.dep_ == "parataxis" and subject is not None and subject.lower_ in ("i", "you")
    )


def excluded_tokens(head: Token, split: set[int]) -> set[int]:
    """Token indexes to leave out of ``head``'s clause: clauses split off on their own,
    and parenthetical asides ("as you know")."""
    out: set[int] = set()
    for token in head.subtree:
        if token == head:
            continue
        if token.i in split or is_aside(token) or token.dep_ in ("parataxis", "dep"):
            out |= block(token)  # "dep": a piece the parser could not attach
    return out


def trim(tokens: list[Token]) -> list[Token]:
    """Drop leading connectives, discourse words and punctuation; trailing punctuation."""
    while tokens and (
        tokens[0].is_punct
        or tokens[0].dep_ in ("cc", "mark", "intj", "discourse", "preconj")
        or (tokens[0].lower_ in DISCOURSE and tokens[0].dep_ in ("advmod", "cc", "intj"))
    ):
        tokens = tokens[1:]
    while tokens and (
        tokens[-1].is_punct or tokens[-1].dep_ == "cc" or tokens[-1].lower_ in ("though", "too")
    ):
        tokens = tokens[:-1]
    # a trailing aside: "…, to be honest", "…, frankly", "…, you know"
    tail = " ".join(t.lower_ for t in tokens[-4:])
    for aside in ("to be honest", "frankly", "you know", "i think", "i guess", "honestly"):
        if tail.endswith(aside) and len(tokens) > len(aside.split()) + 2:
            cut = len(tokens) - len(aside.split())
            if tokens[cut - 1].text == ",":
                tokens = tokens[: cut - 1]
            break
    if len(tokens) > 2 and tokens[-1].lower_ in ("etc", "etc."):
        tokens = trim(tokens[:-1])
    # a vocative at the start: "Mr. Trump, you have…"
    comma = next((n for n, t in enumerate(tokens[:4]) if t.text == ","), None)
    if comma and all(
        t.ent_type_ == "PERSON" or t.text in ("Mr.", "Mrs.", "Ms.", "Dr.") for t in tokens[:comma]
    ):
        tokens = tokens[comma + 1 :]
    # a vocative at the end: "…, Donald"
    if len(tokens) > 3 and tokens[-2].text == "," and tokens[-1].ent_type_ == "PERSON":
        tokens = tokens[:-2]
    return tokens


MAX_CLAUSE_WORDS = 26
"""Longer clauses lose trailing modifiers (relative and adverbial clauses, then
prepositional phrases) until they fit; a question restating more is hard to read."""


OPTIONAL = ("appos", "relcl", "acl")
"""Trimmed only where they describe (an apposition, a relative clause); a trimmed
prepositional phrase or adverbial clause would change the claim, so such a clause is
left out instead."""


CONNECTIVES = words(
    """in addition, on the other hand, at the same time, after all, in any case, for
    example, for instance, as a matter of fact, in fact, of course, in other words, by
    the way, however, though, also, too, as well, in turn, then again, moreover,
    furthermore, besides, meanwhile, nevertheless, nonetheless, still, anyway, by
    contrast, in contrast, on the contrary, similarly, likewise, instead, conversely"""
)
"""Phrases that link a clause to what came before: a restated claim stands alone, so
they are left out wherever they sit ("in addition, United cancels…", "we also, though,
need…" → "United cancels…", "we need…")."""


def _connective(child: Token) -> bool:
    """Whether ``child`` (of a clause's head) is a linking phrase and nothing more."""
    if child.dep_ not in ("prep", "advmod", "npadvmod", "cc", "advcl"):
        return False
    words = " ".join(t.lower_ for t in child.subtree if not t.is_punct)
    return words in CONNECTIVES


def clause_tokens(head: Token, split: set[int]) -> list[Token]:
    excluded = excluded_tokens(head, split)
    for child in head.children:
        if _connective(child):
            excluded |= {t.i for t in child.subtree}
            # the commas around an aside go with it ("we also, though, need")
            for n in (child.left_edge.i - 1, child.right_edge.i + 1):
                if 0 <= n < len(head.doc) and head.doc[n].text == ",":
                    excluded.add(n)
    # emphasis adds nothing a question should repeat ("it's fairly clear that…" stays),
    # nor its own degree word ("should most certainly be": not "should most be")
    excluded |= {
        d.i for t in head.subtree if t.lower_ in EMPHASIS and t.dep_ == "advmod" for d in t.subtree
    }
    for token in [t for t in head.subtree if _cut_off(t, excluded)]:
        excluded |= {d.i for d in token.subtree}
        before = token.left_edge.i - 1  # the comma that opened it goes with it
        if before >= 0 and head.doc[before].text == ",":
            excluded.add(before)
    tokens = trim([t for t in head.subtree if t.i not in excluded])
    for dep in OPTIONAL:
        if sum(t.is_alpha for t in tokens) <= MAX_CLAUSE_WORDS:
            break
        for token in reversed(tokens):
            if token.dep_ == dep and token.i > head.i and token.head.i >= head.i:
                excluded |= block(token)
                tokens = trim([t for t in head.subtree if t.i not in excluded])
                if sum(t.is_alpha for t in tokens) <= MAX_CLAUSE_WORDS:
                    break
    if sum(t.is_alpha for t in tokens) > MAX_CLAUSE_WORDS:
        return []
    return tokens


_AS_LONG = {"long", "far", "soon", "much"}


def _cut_off(token: Token, excluded: set[int]) -> bool:
    """A piece left meaningless by what was cut: a "because" with no clause after it
    ("… a better decision because 1", "because the amount of time": a list or a phrase
    follows, not a reason), or the "as long" of an "as long as …" clause cut away."""
    if token.dep_ == "prep" and token.lower_ == "because":
        return not any(c.lower_ == "of" for c in token.children)
    if token.dep_ == "advmod" and token.lower_ in _AS_LONG:
        return any(c.dep_ == "advcl" and c.i in excluded for c in token.children)
    if token.dep_ == "advmod" and token.lower_ == "as" and token.head.lower_ in _AS_LONG:
        return any(c.dep_ == "advcl" and c.i in excluded for c in token.head.children)
    return False


def _gives_reason(token: Token) -> bool:
    """A "because …" clause: the reason for an action, not part of it."""
    return token.dep_ == "advcl" and any(
        c.dep_ == "mark" and c.lower_ in CONTRAST_OR_REASON for c in token.children
    )


def modal_action(head: Token) -> tuple[str, list[Token]] | None:
    """For "we should ban X" / "we've got to work with X" / "we need to do Y": the kind
    of obligation and the tokens of the proposed action (base form)."""
    auxes = {c.lower_ for c in head.children if c.dep_ == "aux"}
    if auxes & OBLIGATION and head.tag_ == "VB":
        if any(c.dep_ == "neg" for c in head.children):
            return None  # "we should not X": a proposal to refrain, restated poorly
        reasons = {t.i for c in head.children if _gives_reason(c) for t in c.subtree}
        return "modal", [
            t
            for t in head.subtree
            if t.i not in reasons and (t.dep_ not in ("nsubj", "aux", "neg") or t.head != head)
        ]
    if any(c.dep_ == "neg" for c in head.children):
        return None  # "an individual doesn't have to…" is no proposal
    got_to = head.lower_ in ("got", "gotta") and any(
        c.dep_ == "aux" and c.lemma_ == "have" for c in head.children
    )
    if head.lemma_ in NEED_VERBS or got_to:
        xcomp = next((c for c in head.children if c.dep_ == "xcomp" and c.tag_ == "VB"), None)
        if xcomp is not None and any(c.lower_ == "to" for c in xcomp.children):
            # "we've got to do everything we can to vacuum up…": the parser may hang the
            # purpose clause on "got"; it belongs to the action
            tokens = [t for t in xcomp.subtree if not (t.head == xcomp and t.dep_ == "aux")]
            tail = [
                t
                for c in head.children
                if c.dep_ in ("xcomp", "advcl") and c.i > xcomp.i
                for t in c.subtree
            ]
            return "need", tokens + tail
    return _announced_plan(head)


def _announced_plan(head: Token) -> tuple[str, list[Token]] | None:
    """ "I'm going to cut taxes", "we will build a wall": a plan the speaker announces is
    a proposal too — challenged for its feasibility and its side effects, never asked
    to be proved."""
    subject = subject_of(head)
    if subject is None or subject.lower_ not in ("i", "we"):
        return None
    auxes = {c.lower_.replace("’", "'") for c in head.children if c.dep_ == "aux"}
    if auxes & {"will", "'ll", "shall"} and head.tag_ == "VB":
        return "plan", [
            t
            for t in head.subtree
            if not (t.head == head and t.dep_ in ("nsubj", "aux", "neg", "advmod") and t.i < head.i)
        ]
    if head.lower_ in ("going", "gon") and "to" not in auxes:
        xcomp = next((c for c in head.children if c.dep_ == "xcomp" and c.tag_ == "VB"), None)
        if xcomp is not None:
            return "plan", [t for t in xcomp.subtree if not (t.head == xcomp and t.dep_ == "aux")]
    return None


def starts_well(tokens: list[Token], subject: Token) -> bool:
    """A clause opens with its subject, or with an adverb or a prepositional phrase
    before it ("in 2008, we…"); not with a fronted object, a subordinator or "the more"."""
    start = subject.left_edge.i
    for token in tokens:
        if token.i >= start:
            return True
        if token.tag_ in ("WRB", "WDT", "WP", "JJR", "RBR") or token.dep_ in ("dobj", "mark"):
            return False
        if token.dep_ not in (
            "advmod",
            "prep",
            "pobj",
            "det",
            "amod",
            "compound",
            "punct",
            "nummod",
            "npadvmod",
            "pcomp",
            "poss",
            "case",
            "cc",
        ):
            return False
    return True


UNRESOLVED = words("it, this, that, these, those, they, them, which, one, both, some, all")


def extraposed(head: Token) -> bool:
    """ "It's important that we act", "it is time that…": "it" stands for the clause."""
    return any(c.dep_ in ("ccomp", "xcomp", "csubj") for c in head.children) or any(
        g.dep_ in ("ccomp", "acl", "xcomp")
        for c in head.children
        if c.dep_ in ("acomp", "attr")
        for g in c.children
    )


CONDITIONS = {"if", "when", "once", "unless", "whenever"}


EMPHASIS = words(
    """clearly, really, actually, basically, frankly, honestly, obviously, certainly,
    literally, just, totally, absolutely"""
)


def fronted_condition(head: Token, *, subject: Token) -> Token | None:
    """A condition put before the clause ("If you help create the profits, you should…")."""
    for child in head.children:
        if (
            child.dep_ == "advcl"
            and child.i < subject.i
            and any(g.dep_ == "mark" and g.lower_ in CONDITIONS for g in child.children)
        ):
            return child
    return None


def content_lemmas(tokens) -> tuple[str, ...]:
    """Distinct content lemmas of ``tokens`` (alphabetic, not stop words, 3+ letters)."""
    return tuple(
        dict.fromkeys(
            t.lemma_.lower() for t in tokens if t.is_alpha and not t.is_stop and len(t) > 2
        )
    )


AFFIRMING = words(
    """think, believe, know, mean, feel, guess, suppose, say, bet, agree, understand,
    realize, realise, argue"""
)


FINDING = {"show", "prove", "find", "determine", "conclude", "report", "state", "confirm"}


def asserted_report(verb: Token) -> bool:
    """Whether what ``verb`` reports is asserted by the speaker: "I think X", "that means
    X", "the study found X" — not "it is dangerous to claim X", "I don't think X" or
    "they say X" (a view reported, perhaps to reject it)."""
    if verb.dep_ not in ("ROOT", "conj") or any(c.dep_ == "neg" for c in verb.children):
        return False
    subject = subject_of(verb)
    if subject is None:
        return False
    if subject.lower_ in SELF_OR_ANAPHOR:
        return verb.lemma_ in AFFIRMING and subject.lower_ not in ("you", "he", "she", "they")
    return verb.lemma_ in FINDING


def split_points(sentence: Span) -> set[int]:
    """Heads of clauses that stand on their own within a sentence: coordinated clauses
    with their own subject, and reported clauses."""
    return {token.i for token in sentence if _stands_alone(token)}


CONTRAST_OR_REASON = {"because", "since", "although", "though", "whereas"}


def _stands_alone(token: Token) -> bool:
    if subject_of(token) is None:
        return False
    if token.dep_ == "conj":
        return token.head.pos_ in ("VERB", "AUX")
    if token.dep_ == "ccomp":
        return asserted_report(token.head)
    if token.dep_ == "advcl":
        return any(c.dep_ == "mark" and c.lower_ in CONTRAST_OR_REASON for c in token.children)
    return False
