"""Locating a span in its argument.

Spans in released data and in model output are rarely exact copies of the argument:
a leading space, a trailing period the argument does not have, curly quotes, a typo.
``snap_span`` finds the closest exact substring and returns its character offsets, in
steps that change the text as little as possible, and says which step found it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz

FUZZY_CUTOFF = 85.0
"""Least rapidfuzz partial-ratio (0–100) for a fuzzy match: one or two typos in a
clause pass, a different clause does not."""

_JOINED = re.compile(r"\s*/\s+|\s+/\s*|(?<=[.!?])/")
_EDGE = "\"'“”‘’`*[]() \t\r\n"


@dataclass(frozen=True)
class Snap:
    """Where a span sits in its argument."""

    start: int
    end: int
    how: str
    """``exact``, ``trimmed`` (edges, case or spacing differed), ``fuzzy`` (typos) or
    ``first-part`` (the first of several spans joined by " / ")."""

    def text(self, argument: str) -> str:
        """The exact substring."""
        return argument[self.start : self.end]


def _trim(span: str) -> str:
    return span.strip(_EDGE).rstrip(".,;:!?").strip(_EDGE)


def _loose_pattern(span: str) -> re.Pattern[str] | None:
    words = span.split()
    if not words:
        return None
    return re.compile(r"\s+".join(re.escape(w) for w in words), re.IGNORECASE)


def _to_word_edges(argument: str, start: int, *, end: int) -> tuple[int, int]:
    # a fuzzy alignment may cut a word in half; widen it to whole words, then drop
    # the spaces and punctuation it picked up at its edges
    while start > 0 and argument[start - 1].isalnum() and argument[start].isalnum():
        start -= 1
    while end < len(argument) and argument[end - 1].isalnum() and argument[end].isalnum():
        end += 1
    while start < end and not argument[start].isalnum():
        start += 1
    while end > start and not argument[end - 1].isalnum():
        end -= 1
    # keep the closing quote of a quotation the span opens ("selfish" -> "selfish")
    inside = argument[start:end]
    for opening, closing in (('"', '"'), ("“", "”")):
        if opening == closing:
            unbalanced = inside.count(opening) % 2 == 1
        else:
            unbalanced = inside.count(opening) > inside.count(closing)
        if unbalanced and end < len(argument) and argument[end] == closing:
            end += 1
            break
    return start, end


def snap_span(argument: str, *, span: str) -> Snap | None:
    """The closest exact substring of ``argument`` to ``span``, or None when there is
    none close enough (or the span is empty or "Null").

    Annotators sometimes give two spans joined by " / "; such a span snaps to its
    first part (``how`` is then ``first-part``)."""
    if not span.strip() or span.strip().lower() == "null":
        return None
    found = _snap_one(argument, span=span)
    parts = _JOINED.split(span)
    if found is None and len(parts) > 1:
        first = _snap_one(argument, span=parts[0])
        if first is not None:
            return Snap(first.start, first.end, "first-part")
    return found


def _snap_one(argument: str, *, span: str) -> Snap | None:
    index = argument.find(span)
    if index >= 0:
        return Snap(index, index + len(span), "exact")
    trimmed = _trim(span)
    if not trimmed:
        return None
    index = argument.find(trimmed)
    if index >= 0:
        return Snap(index, index + len(trimmed), "trimmed")
    pattern = _loose_pattern(trimmed)
    if pattern and (match := pattern.search(argument)):
        return Snap(match.start(), match.end(), "trimmed")
    alignment = fuzz.partial_ratio_alignment(
        trimmed.lower(), argument.lower(), score_cutoff=FUZZY_CUTOFF
    )
    if alignment is None or alignment.dest_end <= alignment.dest_start:
        return None
    start, end = _to_word_edges(argument, alignment.dest_start, end=alignment.dest_end)
    if end <= start:
        return None
    return Snap(start, end, "fuzzy")
