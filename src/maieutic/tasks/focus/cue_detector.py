"""The model-free FOCUS baseline: weakness types from linguistic cues.

Each type has a short list of cues that follow from its definition (a universal
quantifier for an overgeneralisation, a causal connective for a questionable cause, a
first-person opinion marker for bias…). A type is detected when one of its cues occurs;
its span is the shortest clause that carries the first cue in the text (the annotation
guideline: as short as possible, and the first candidate wins). Vague terms take the
term itself. The question is the type's template with the span in the blank.

Two types are detected by default rather than by a cue, because their definitions
apply to almost any argument: another stakeholder can dispute any claim (Other
Stakeholder Perspective), and a claim stated without support lacks evidence (Lacks
Evidence, unless the text offers support, which is then probed as weak). For them the
span is the argument's main claim: the first clause with a normative or evaluative
word, else the first clause.

Given a category, only its two types are considered (the annotation protocol);
without one, every type is, and the two detected earliest in the text are kept (the
task allows two).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from maieutic.tasks.focus.type_labels import SpanLabel
from maieutic.tasks.focus.typology import typology

MAX_TYPES = 2


def _words(words: Sequence[str]) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(words) + r")\b", re.IGNORECASE)


CUES: dict[str, re.Pattern[str]] = {
    # a change over time: time words and tense markers
    "TC": _words(
        [
            "now",
            "today",
            "currently",
            "nowadays",
            "anymore",
            "these days",
            "modern",
            "future",
            "will",
            "would",
            "used to",
            "ago",
            "years?",
            "recently",
            "still",
            "soon",
            "yet",
            "in the past",
            "historically",
            "century",
        ]
    ),
    # subjective or loaded terms a general reader could take differently
    "VAT": re.compile(
        r"(?<!\w)\"\w[^\"]{0,38}\w\"|“\w[^”]{0,38}\w”|\b(?:[a-z]+ism|[a-z]+ists?|[a-z]+ity|[a-z]+ness|"
        r"privilege[d]?|oppress\w*|autonomy|morality|freedom|[A-Z]{2,})\b",
    ),
    # universal quantifiers and absolutes
    "OG": _words(
        [
            "all",
            "every",
            "everyone",
            "everybody",
            "everything",
            "always",
            "never",
            "nobody",
            "no one",
            "none",
            "nothing",
            "any",
            "anyone",
            "only",
            "entire",
            "whole",
            "completely",
            "totally",
            "most",
            "people",
            "they",
            "women",
            "men",
        ]
    ),
    # presuppositions: something taken for granted
    "IE": _words(
        [
            "of course",
            "obviously",
            "clearly",
            "the fact that",
            "since",
            "given that",
            "must",
            "should",
            "need to",
            "have to",
            "has to",
            "there is no",
            "there are no",
            "no other",
            "if",
            "the only",
            "the real",
        ]
    ),
    # first-person opinion, feeling and evaluative words
    "BS": _words(
        [
            "i think",
            "i believe",
            "i feel",
            "in my opinion",
            "imo",
            "personally",
            "i hate",
            "i love",
            "i don't like",
            "honestly",
            "to me",
            "i'm",
            "i am",
            "my",
            "stupid",
            "ridiculous",
            "terrible",
            "awful",
            "bizarre",
            "best",
            "worst",
            "better",
            "worse",
            "sad",
            "annoying",
            "wrong",
            "bad",
            "good",
        ]
    ),
    # causal connectives
    "QCE": _words(
        [
            "because",
            "so that",
            "therefore",
            "thus",
            "hence",
            "leads? to",
            "led to",
            "causes?",
            "caused",
            "results? in",
            "due to",
            "as a result",
            "that's why",
            "which means",
            "makes?",
            "since",
        ]
    ),
    # an effect named as the cause: "X because Y" where Y is an outcome
    "CF": re.compile(
        r"\b(?:because|since)\b[^.]{0,60}\b(?:success|successful|rich|happy|passed|won|"
        r"scores?|results?)\b",
        re.IGNORECASE,
    ),
    # support that is offered: examples, anecdotes, studies, figures
    "WE": _words(
        [
            "for example",
            "for instance",
            "e\\.g\\.",
            "like when",
            "i know",
            "my friend",
            "i've seen",
            "i have seen",
            "studies",
            "study",
            "research",
            "statistics",
            "according to",
            "evidence",
            "proof",
            "article",
            "source",
            "\\d+%",
            "percent",
            "because",
        ]
    ),
}

# types whose definition applies to any claim: detected by default (see module doc)
BY_DEFAULT = ("OSP", "LE")
_CLAIM = _words(
    [
        "should",
        "must",
        "need",
        "is",
        "are",
        "was",
        "were",
        "will",
        "can't",
        "cannot",
        "better",
        "worse",
        "wrong",
        "right",
        "best",
        "worst",
        "bad",
        "good",
    ]
)
_CLAUSE_BREAK = re.compile(
    r"[,;:()]|\s[-–—]\s|\s(?=(?:but|because|so|and|which|while|although|though|whereas|or)\s)",
    re.IGNORECASE,
)


@cache
def _segmenter():
    import pysbd  # no downloads: rule-based

    return pysbd.Segmenter(language="en", clean=False, char_span=True)


PYSBD_MAX_CHARS = 5_000
"""pysbd takes seconds on very long texts; beyond this a plain punctuation split is used."""
_SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+|$)")
_LEADING_CONNECTIVE = re.compile(r"^(?:(?:but|and|or|so)\s+)+", re.IGNORECASE)


def _sentences(argument: str) -> list[tuple[int, int, str]]:
    if len(argument) > PYSBD_MAX_CHARS:
        return [(m.start(), m.end(), m.group()) for m in _SENTENCE.finditer(argument)]
    return [(s.start, s.end, s.sent) for s in _segmenter().segment(argument)]


@dataclass(frozen=True)
class Clause:
    """A clause with its character offsets in the argument."""

    start: int
    end: int


def clauses(argument: str) -> list[Clause]:
    """Sentences cut at punctuation and clause-level conjunctions, trimmed of spaces,
    punctuation and a leading coordinator ("but they …" → "they …"; a subordinator such
    as "because" stays: it is part of what a causal or evidential span claims)."""
    out: list[Clause] = []
    for s_start, s_end, text in _sentences(argument) if argument.strip() else []:
        cuts = [s_start] + [s_start + m.start() for m in _CLAUSE_BREAK.finditer(text)]
        cuts.append(s_end)
        for start, end in itertools.pairwise(cuts):
            while start < end and not argument[start].isalnum():
                start += 1
            if connective := _LEADING_CONNECTIVE.match(argument[start:end]):
                start += connective.end()
            while end > start and not argument[end - 1].isalnum():
                end -= 1
            if end - start >= 3:
                out.append(Clause(start, end))
    return out


class CueDetector:
    """Detects weakness types and their spans from cues (no model)."""

    def _span_for(
        self, argument: str, *, type_id: str, parts: Sequence[Clause]
    ) -> tuple[int, int] | None:
        if type_id in BY_DEFAULT:
            if type_id == "LE" and CUES["WE"].search(argument):
                return None  # support is offered: it is probed as weak, not as missing
            claim = next((c for c in parts if _CLAIM.search(argument[c.start : c.end])), None)
            chosen = claim or (parts[0] if parts else None)
            return (chosen.start, chosen.end) if chosen else None
        match = CUES[type_id].search(argument)
        if match is None:
            return None
        if type_id == "VAT":  # the term itself is the span
            start, end = match.span()
            return start + (argument[start] in '"“'), end - (argument[end - 1] in '"”')
        holding = [c for c in parts if c.start <= match.start() < c.end]
        if not holding:
            return match.span()
        shortest = min(holding, key=lambda c: (c.end - c.start, c.start))
        return shortest.start, shortest.end

    def detect(
        self, argument: str, category: str | None = None, limit: int = MAX_TYPES
    ) -> list[SpanLabel]:
        """Up to ``limit`` labels (type id, span with offsets, slot, question), earliest
        in the text first; none means None of the Above."""
        parts = clauses(argument)
        allowed = typology().category_types(category)
        found: list[tuple[int, str, int, int]] = []
        for type_id in allowed:
            span = self._span_for(argument, type_id=type_id, parts=parts)
            if span is not None and span[1] > span[0]:
                found.append((span[0], type_id, *span))
        found.sort()
        labels = []
        for _, type_id, start, end in found[:limit]:
            text = argument[start:end]
            slot = allowed.index(type_id) + 1 if category and len(allowed) == 2 else None
            question = typology().types[type_id].question(text)
            labels.append(
                SpanLabel(
                    type=type_id, text=text, start=start, end=end, slot=slot, question=question
                )
            )
        if category is None:
            labels = [
                SpanLabel(
                    type=x.type, text=x.text, start=x.start, end=x.end, slot=i, question=x.question
                )
                for i, x in enumerate(labels, start=1)
            ]
        return labels
