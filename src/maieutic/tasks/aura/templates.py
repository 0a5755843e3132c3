"""Question templates for structural entropy: what / why / how / how many / how much /
when / where / who / which / yes-no / other."""

from __future__ import annotations

import string

TEMPLATE_CLASSES = (
    "what",
    "why",
    "how",
    "how many",
    "how much",
    "when",
    "where",
    "who",
    "which",
    "yes-no",
    "other",
)
_AUXILIARIES = {
    "is",
    "are",
    "was",
    "were",
    "am",
    "be",
    "do",
    "does",
    "did",
    "have",
    "has",
    "had",
    "can",
    "could",
    "shall",
    "should",
    "will",
    "would",
    "may",
    "might",
    "must",
    "isn't",
    "aren't",
    "wasn't",
    "weren't",
    "don't",
    "doesn't",
    "didn't",
    "can't",
    "couldn't",
    "won't",
    "wouldn't",
    "shouldn't",
    "hasn't",
    "haven't",
}
_WH = {
    "what": "what",
    "why": "why",
    "how": "how",
    "when": "when",
    "where": "where",
    "who": "who",
    "whom": "who",
    "whose": "who",
    "which": "which",
}


def template(question: str) -> str:
    """The template class of a question: an auxiliary verb first is a yes/no question;
    otherwise the first wh-word (``how many``/``how much`` kept apart); else other."""
    tokens = [t.strip(string.punctuation) for t in question.lower().split()]
    tokens = [t for t in tokens if t]
    if not tokens:
        return "other"
    if tokens[0] in _AUXILIARIES:
        return "yes-no"
    for index, token in enumerate(tokens):
        if token == "how" and index + 1 < len(tokens) and tokens[index + 1] in ("many", "much"):
            return f"how {tokens[index + 1]}"
        if token in _WH:
            return _WH[token]
    return "other"
