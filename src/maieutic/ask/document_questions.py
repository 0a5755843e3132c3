"""Model-free questions about a long document, one per paragraph, for AURA to assess.

They are shallow on purpose — a definitional question about the subject of each
paragraph's first sentence ("What is the fuel pump?"), else a question about the
paragraph's most frequent name — so that the offline path still shows the four AURA
axes for a document. Real question sets come from a language model (``--llm`` /
``--base-url``)."""

from __future__ import annotations

import re
from collections import Counter

from maieutic.language.wellformed import is_well_formed
from maieutic.language.word_lists import words
from maieutic.tasks.aura.api import blocks, sentences

MAX_QUESTIONS = 12
_COPULA = re.compile(
    r"^(?P<subject>(?:the|a|an|this|these|each|every|our|its)?\s*[\w'\- ]{2,50}?)\s+"
    r"(?P<verb>is|are|was|were)\s+",
    re.IGNORECASE,
)
_SUBJECT = re.compile(
    r"^(?P<subject>(?:the|a|an|this|these|each|every|our|its|your)\s+[\w'\- ]{2,40}?)\s+"
    r"(?:may|can|could|will|should|must|has|have|does|do|helps?|allows?|causes?|"
    r"affects?|requires?|needs?|provides?|contains?|includes?)\b",
    re.IGNORECASE,
)
_CLAUSE_WORDS = {"that", "which", "who", "say", "says", "said", "think", "thinks", "if"}
_QUANTIFIERS = words(
    """some, many, most, such, all, any, several, few, both, each, every, no, other, more,
    much"""
)
"""A copula subject opening with one of these is a set of things, not one thing to
define ("Some devices are designed…" does not ask "What are some devices?")."""
_IDIOMS = words(
    """example, instance, fact, addition, contrast, course, case, turn, general,
    particular, short, sum, order, spite"""
)
"""Nouns of fixed connective phrases ("for example", "in fact", "in addition"): never a
topic."""
_DROPPED = {"DT", "PDT", "PRP$", "WDT", "POS"}
"""Words dropped from the front of a topic phrase ("this", "our", "a"), except "the",
which the question keeps ("about the lower deck")."""


def _lower_first(phrase: str) -> str:
    return phrase if phrase[:2].isupper() else phrase[0].lower() + phrase[1:]


def _definable(subject: str) -> bool:
    """A copula subject worth "What is …?": a short noun phrase, not a clause, not a
    quantified set."""
    words = subject.lower().split()
    return len(words) <= 6 and not (_CLAUSE_WORDS & set(words)) and words[0] not in _QUANTIFIERS


def _topic(paragraph: str) -> str | None:
    """The paragraph's main noun phrase: the noun chunk whose head (a noun or name, not
    a pronoun, connective or function word) recurs most, first met on a tie, without a
    leading determiner other than "the". Chosen among noun phrases, a topic can never
    be "Therefore" or "giving"."""
    from maieutic.language import syntax

    doc = syntax.nlp()(paragraph)
    counts: Counter[str] = Counter()
    phrases: dict[str, str] = {}
    for chunk in doc.noun_chunks:
        head = chunk.root
        if head.pos_ not in ("NOUN", "PROPN") or head.is_stop or not head.is_alpha:
            continue
        if len(head.text) < 3:
            continue
        if len(chunk) == 1 and head.lower_ in _IDIOMS and head.dep_ == "pobj":
            continue  # "for example", "in fact": a connective, not a topic
        words = list(chunk)
        while (
            words
            and words[0].lower_ != "the"
            and (words[0].tag_ in _DROPPED or words[0].lower_ in _QUANTIFIERS)
        ):
            words = words[1:]
        if not words:
            continue
        key = head.lemma_.lower()
        counts[key] += 1
        phrases.setdefault(key, doc[words[0].i : chunk.end].text)
    if not counts:
        return None
    best = max(counts, key=lambda k: (counts[k], -list(phrases).index(k)))
    return phrases[best]


def _question(paragraph: str) -> str | None:
    first = next(iter(sentences(paragraph)), paragraph).strip()
    if match := _COPULA.match(first):
        subject = match.group("subject").strip()
        if _definable(subject):
            return f"What {match.group('verb').lower()} {_lower_first(subject)}?"
    if match := _SUBJECT.match(first):
        return f"What does the text say about {_lower_first(match.group('subject').strip())}?"
    topic = _topic(paragraph)
    return f"What does the text say about {_lower_first(topic)}?" if topic else None


def document_questions(text: str, limit: int = MAX_QUESTIONS) -> list[str]:
    """One question per paragraph and per list item, deduplicated, at most
    ``limit``."""
    out: list[str] = []
    parts = [
        part
        for block in blocks(text)
        for part in (block.items if block.kind == "list" and block.items else [block.text])
    ]
    for part in parts:
        question = _question(part)
        # the same check as every generator's selection ("What is the the pump?")
        if question and question not in out and is_well_formed(question, text):
            out.append(question)
        if len(out) == limit:
            break
    return out
