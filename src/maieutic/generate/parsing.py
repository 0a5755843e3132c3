"""Turning free-form model output into a clean list of questions.

Models wrap their questions in many ways: reasoning blocks (``<think>…</think>``),
preambles ("Here are three questions:"), numbering and bullets, quotes and markdown
emphasis, several questions on one line, and explanations after each question. This
parser keeps the questions and drops the rest.
"""

from __future__ import annotations

import re

_THINK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.IGNORECASE | re.DOTALL)
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
# A question ends at "?" (optionally followed by a closing quote or bracket).
_QUESTION = re.compile(r"[^?]*?\?[\"'”’)\]]*")
_QUOTES = "\"'“”‘’"
# "… questions: 1. Why X? 2. Who Y?" -> one question per line
_INLINE_NUMBER = re.compile(r"(?:(?<=[?:!.])|(?<=^))\s*\(?\d{1,2}[.)]\s+(?=[A-Z\"“'‘*])")
# Sentence breaks before a question: after "!", ":" or a lower-case word and a full stop
# (not after initials such as "U.S.", which would cut a question in two).
_SENTENCE_BREAK = re.compile(r"(?:(?<=[!:])|(?<=[a-z]{3}\.))\s+(?=[A-Z\"“])")


def strip_reasoning(text: str) -> str:
    """Remove reasoning blocks; an unclosed one hides everything after it."""
    text = _THINK.sub(" ", text)
    text = (
        _STRAY_CLOSE.sub(" ", text)
        if re.search(r"</(think|thinking|reasoning)>", text, re.I)
        else text
    )
    return _UNCLOSED_THINK.sub(" ", text)


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


def parse_questions(text: str, *, min_words: int = 3) -> list[str]:
    """Extract the distinct questions from a model reply, in order.

    A question is a span ending in "?" with at least ``min_words`` words; text
    without a question mark (preambles, explanations) is dropped. Case- and
    space-insensitive repeats are kept once.
    """
    text = strip_reasoning(text)
    questions: list[str] = []
    seen: set[str] = set()
    text = _INLINE_NUMBER.sub("\n", text)
    for line in text.splitlines():
        line = _MARKER.sub("", _EMPHASIS.sub("", line).strip(), count=1)
        for match in _QUESTION.finditer(line):
            question = _clean(_SENTENCE_BREAK.split(match.group(0))[-1])
            if not question.endswith("?") or len(question.split()) < min_words:
                continue
            # "Here are the questions: Why X?" -> keep what follows the colon
            head, sep, tail = question.partition(": ")
            if sep and "?" not in head and len(tail.split()) >= min_words:
                question = tail
            question = question[0].upper() + question[1:]
            key = question.lower()
            if key not in seen:
                seen.add(key)
                questions.append(question)
    return questions
