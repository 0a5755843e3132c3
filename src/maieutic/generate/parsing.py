"""Turning free-form model output into a clean list of questions.

Models wrap their questions in many ways: reasoning blocks (``<think>…</think>``),
preambles ("Here are three questions:"), numbering and bullets, quotes and markdown
emphasis, several questions on one line, and explanations after each question. This
parser keeps the questions and drops the rest.

Every step is linear in the reply's length: a runaway model can return megabytes
without a "?", and a regex that rescans the tail from every position turns that into
minutes of parsing for one item.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator

MAX_REPLY_CHARS = 20_000
"""The most characters of a reply (after its reasoning blocks) that are parsed: a list
of questions is never longer, and the cut bounds the work on a runaway reply."""

_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.IGNORECASE)
_CLOSE = re.compile(r"</(think|thinking|reasoning)>", re.IGNORECASE)
_UNCLOSED_THINK = re.compile(r"<(think|thinking|reasoning)>.*", re.IGNORECASE | re.DOTALL)
_STRAY_CLOSE = re.compile(r"^.*?</(think|thinking|reasoning)>", re.IGNORECASE | re.DOTALL)
_MARKER = re.compile(
    r"""^\s*(?:
        (?:question|q|cq)\s*\d+\s*[:.)-]      # Question 1:  Q2.  CQ3)
      | \(?\d{1,2}\s*[.):-]                   # 1.  2)  (3)  4:
      | \(?[a-z]\)                            # a)  (b)
      | [-*•‣◦·–—>]+                          # bullets
    )\s*""",
    re.IGNORECASE | re.VERBOSE,
)
_EMPHASIS = re.compile(r"(\*\*|__|`)")
_LABEL_PREFIX = re.compile(r"^(?:critical\s+)?question\s*:\s*", re.IGNORECASE)
# A question ends at "?", optionally followed by closing quotes or brackets.
_CLOSERS = "\"'”’)]"
_QUOTES = "\"'“”‘’"
# "… questions: 1. Why X? 2. Who Y?" -> one question per line
_INLINE_NUMBER = re.compile(r"(?:(?<=[?:!.])|(?<=^))\s*\(?\d{1,2}[.)]\s+(?=[A-Z\"“'‘*])")
# Sentence breaks before a question: after "!", ":" or a lower-case word and a full stop
# (not after initials such as "U.S.", which would cut a question in two).
_SENTENCE_BREAK = re.compile(r"(?:(?<=[!:])|(?<=[a-z]{3}\.))\s+(?=[A-Z\"“])")


def _tag_key(name: str) -> str:
    """The tag name as a case-insensitive back-reference compares it (``İ`` is ``i``)."""
    return name.replace("\u0130", "i").lower()


def _drop_closed_blocks(text: str) -> str:
    """Replace each ``<think>…</think>`` block (the first matching close) by a space.

    What ``re.sub(r"<(think|…)>.*?</\\1>", " ", text)`` does, without its quadratic
    cost: that regex scans to the end of the text for every opening tag that is never
    closed. Here every close is found once and each opening looks its close up.
    """
    closes: dict[str, list[tuple[int, int]]] = {}
    for match in _CLOSE.finditer(text):
        closes.setdefault(_tag_key(match.group(1)), []).append(match.span())
    if not closes:
        return text
    pieces, pos = [], 0
    for opening in _OPEN.finditer(text):
        spans = closes.get(_tag_key(opening.group(1)), [])
        i = bisect_left(spans, (opening.end(), 0))
        if opening.start() < pos or i == len(spans):
            continue  # inside a block already dropped, or never closed
        pieces += [text[pos : opening.start()], " "]
        pos = spans[i][1]
    pieces.append(text[pos:])
    return "".join(pieces)


def strip_reasoning(text: str) -> str:
    """Remove reasoning blocks; an unclosed one hides everything after it."""
    text = _drop_closed_blocks(text)
    text = _STRAY_CLOSE.sub(" ", text) if _CLOSE.search(text) else text
    return _UNCLOSED_THINK.sub(" ", text)


def _question_spans(line: str) -> Iterator[str]:
    """The spans of ``line`` that end in "?" (and any closing quotes right after it).

    The same spans as ``re.finditer(r"[^?]*?\\?[\\"'”’)\\]]*", line)``, found with
    ``str.find``: the regex retries every position of a tail without "?", each retry
    scanning to the end of the line (72 s for 16,000 words).
    """
    start = 0
    while (mark := line.find("?", start)) != -1:
        end = mark + 1
        while end < len(line) and line[end] in _CLOSERS:
            end += 1
        yield line[start:end]
        start = end


def _clean(fragment: str) -> str:
    fragment = _EMPHASIS.sub("", fragment).strip()
    fragment = _MARKER.sub("", fragment, count=1)
    fragment = _LABEL_PREFIX.sub("", fragment).strip()
    # drop a matched pair of surrounding quotes, then any stray leading quote
    if len(fragment) > 1 and fragment[0] in _QUOTES and fragment[-1] in _QUOTES:
        fragment = fragment[1:-1].strip()
    fragment = fragment.lstrip(_QUOTES).strip()
    if fragment.endswith(('?"', "?'", "?”", "?’")) and fragment.count(fragment[-1]) % 2:
        fragment = fragment[:-1]
    return " ".join(fragment.split())


def _visible_text(text: str, notes: list[str] | None) -> str:
    """The reply without its reasoning, cut to ``MAX_REPLY_CHARS`` (noted in ``notes``).

    The cut comes after the reasoning is removed: a reasoning model may think for
    longer than that before it writes its questions.
    """
    text = strip_reasoning(text)
    if len(text) > MAX_REPLY_CHARS:
        if notes is not None:
            notes.append(
                f"a reply of {len(text):,} characters (without its reasoning) was cut to "
                f"its first {MAX_REPLY_CHARS:,} for parsing"
            )
        text = text[:MAX_REPLY_CHARS]
    return text


def _question_of(span: str, min_words: int) -> str | None:
    """The question a span ending in "?" holds, or None when it is too short."""
    question = _clean(_SENTENCE_BREAK.split(span)[-1])
    if not question.endswith("?") or len(question.split()) < min_words:
        return None
    # "Here are the questions: Why X?" -> keep what follows the colon
    head, sep, tail = question.partition(": ")
    if sep and "?" not in head and len(tail.split()) >= min_words:
        question = tail
    return question[0].upper() + question[1:]


def parse_questions(
    text: str, *, min_words: int = 3, notes: list[str] | None = None, whole_items: bool = False
) -> list[str]:
    """Extract the distinct questions from a model reply, in order.

    A question is a span ending in "?" with at least ``min_words`` words; text
    without a question mark (preambles, explanations) is dropped. Case- and
    space-insensitive repeats are kept once. Only the first ``MAX_REPLY_CHARS`` of
    the reply (after its reasoning) are read; when a reply is cut, a line saying so
    is appended to ``notes`` if given.

    With ``whole_items`` the questions of one numbered or bulleted item stay one
    question, as the model wrote it ("1. Why are banks wary of X? Is it only their
    balance sheets?"): its second half alone would lose what its pronoun stands for. A
    line with no list marker is split as usual.
    """
    # each number on a line of its own, kept so the line still reads as a listed item
    text = _INLINE_NUMBER.sub(lambda m: "\n" + m.group(0).lstrip(), _visible_text(text, notes))
    questions: list[str] = []
    seen: set[str] = set()
    for line in text.splitlines():
        plain = _EMPHASIS.sub("", line).strip()
        listed = _MARKER.match(plain) is not None
        line = _MARKER.sub("", plain, count=1)
        found = [q for span in _question_spans(line) if (q := _question_of(span, min_words))]
        if whole_items and listed and found:  # one numbered or bulleted item
            found = [" ".join(found)]
        for question in found:
            if question.lower() not in seen:
                seen.add(question.lower())
                questions.append(question)
    return questions
