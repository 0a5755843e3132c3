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
from maieutic.tasks.aura.data import blocks, sentences

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
_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-Z][a-z]{2,}(?:\s+[A-Z][a-z]+)*\b")
_CLAUSE_WORDS = {"that", "which", "who", "say", "says", "said", "think", "thinks", "if"}
_WORD = re.compile(r"[a-z][a-z'-]{4,}")
_COMMON = set(
    [
        "about",
        "above",
        "after",
        "again",
        "against",
        "because",
        "before",
        "being",
        "below",
        "between",
        "could",
        "doing",
        "during",
        "further",
        "having",
        "other",
        "should",
        "their",
        "there",
        "these",
        "those",
        "through",
        "under",
        "until",
        "where",
        "which",
        "while",
        "would",
        "your",
        "yours",
        "itself",
        "every",
        "using",
        "since",
        "might",
        "shall",
        "cannot",
    ]
)


def _lower_first(phrase: str) -> str:
    return phrase if phrase[:2].isupper() else phrase[0].lower() + phrase[1:]


def _question(paragraph: str) -> str | None:
    first = next(iter(sentences(paragraph)), paragraph).strip()
    if match := _COPULA.match(first):
        subject = match.group("subject").strip()
        # a clause ("mechanics say that the injectors are…") is not a subject
        if len(subject.split()) <= 6 and not _CLAUSE_WORDS & set(subject.lower().split()):
            return f"What {match.group('verb').lower()} {_lower_first(subject)}?"
    if match := _SUBJECT.match(first):
        return f"What does the text say about {_lower_first(match.group('subject').strip())}?"
    names = Counter(_NAME.findall(paragraph))
    if names:
        return f"What does the text say about {names.most_common(1)[0][0]}?"
    words = Counter(w for w in _WORD.findall(paragraph.lower()) if w not in _COMMON)
    if words:
        return f"What does the text say about {words.most_common(1)[0][0]}?"
    return None


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
