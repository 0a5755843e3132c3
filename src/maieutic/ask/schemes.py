"""Guessing an argument's schemes from cue words, so that a plain text gets the
critical-question templates of the schemes it probably uses (a dataset names them; a
text pasted by a teacher does not). Each cue follows the scheme's definition: an
expert or a source for expert opinion, a causal connective for cause to effect, a
modal of obligation for practical reasoning, and so on. The generic templates are
always added by the generator."""

from __future__ import annotations

import re

_CUES: list[tuple[str, re.Pattern[str]]] = [
    (
        "ExpertOpinion",
        r"\b(?:experts?|scientists?|doctors?|professors?|studies|study|research(?:ers)?|"
        r"according to)\b",
    ),
    (
        "CauseToEffect",
        r"\b(?:because|caus(?:e|es|ed)|lead(?:s)? to|led to|result(?:s|ed)? in|due to)\b",
    ),
    ("PracticalReasoning", r"\b(?:should|must|need to|needs to|ought to|have to|has to)\b"),
    ("Consequences", r"\b(?:will|would|consequences?|otherwise|if we)\b"),
    ("Example", r"\b(?:for example|for instance|such as|look at|take)\b"),
    ("Analogy", r"\b(?:like|just as|similar(?:ly)?|the same as)\b"),
    ("PopularOpinion", r"\b(?:everyone|everybody|most people|majority|nobody|no one)\b"),
    ("Values", r"\b(?:fair|unfair|right|wrong|freedom|justice|moral|values?)\b"),
    ("FearAppeal", r"\b(?:danger(?:ous)?|threat|disaster|catastroph\w*|risk)\b"),
    ("GenericAdHominem", r"\b(?:liar|hypocrit\w*|corrupt|incompetent|idiot)\b"),
    ("Sign", r"\b(?:sign|shows that|proves|evidence that|indicates?)\b"),
]
_COMPILED = [(name, re.compile(pattern, re.IGNORECASE)) for name, pattern in _CUES]
MAX_SCHEMES = 3


def guess_schemes(text: str, limit: int = MAX_SCHEMES) -> tuple[str, ...]:
    """Up to ``limit`` scheme names whose cues occur, the most frequent cues first (ties:
    the order above)."""
    counts = [(len(pattern.findall(text)), -n, name) for n, (name, pattern) in enumerate(_COMPILED)]
    found = sorted((c for c in counts if c[0]), reverse=True)
    return tuple(name for _, _, name in found[:limit])
