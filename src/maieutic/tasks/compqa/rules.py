"""A rule-based judge for the CompQA criteria that text analysis decides well.

Scored (the rubric's numbering, "Argument-Based Comparative Question Answering
Evaluation Benchmark", Figure 3):

- 15: 12–20 sentences (1) or not (0);
- 7: an explicit final choice — the closing sentences name an object with a choice
  word ("better", "recommend"…) and do not hedge ("depends", "both", "either");
- 1: a short introduction (one to three sentences) before the first named aspect;
- 3: the introduction names at least two of the body's aspects;
- 5: the body names its aspects (at least two headings or bold/colon labels);
- 6: at least half of the named aspects are followed by a description (six words or
  more);
- 2 and 4: shown by the same structure (named, separate aspects) — 1 when it is
  there, unscored otherwise (a prose comparison may still be organised);
- 13: no two sentences are near duplicates (embedding cosine ≥ 0.9), when an encoder
  is given.

Everything else (8–12, 14; 13 without an encoder) is unscored — ``None``, never 0 — so
``merge`` can take it from an LLM judge. Answers need their line breaks (the released
answer JSON has them; the 367-row table flattened them).
"""

from __future__ import annotations

import re
from functools import cache

import numpy as np

DUPLICATE_COSINE = 0.9
_HEADING_LINE = re.compile(
    r"^\s*(?:#{1,6}\s*(?P<md>[^\n]+?)|(?:\d+[.)]\s*)?\*\*(?P<bold>[^*\n]+?)\*\*:?)\s*:?\s*$",
    re.MULTILINE,
)
# The label ends at its colon; what follows (on the line, or the next) is only looked at,
# not consumed: a label ending a line ("Main aspects:") must not swallow the next line's
# start, which would hide the label there.
_LABEL = re.compile(
    r"^[ \t]*(?:[-*•]|\d+[.)])?[ \t]*(?:\*\*)?"
    r"(?P<label>[A-Z][\w /&'()-]{2,40}?)(?:\*\*)?[ \t]*:(?:\*\*)?(?=[ \t]+\S|[ \t]*\n\s*\S)",
    re.MULTILINE,
)
_MARKER = re.compile(r"^\s*(?:[-*•]|\d+[.)]|#{1,6})\s*")
_CHOICE = re.compile(
    r"\b(better|best|prefer|preferable|recommend|recommended|winner|choose|choice|go with|"
    r"superior)\b",
    re.IGNORECASE,
)
_GENERIC = {
    "summary",
    "introduction",
    "conclusion",
    "final answer",
    "final choice",
    "overview",
    "main aspects of comparison",
    "comparison",
    "verdict",
    "recommendation",
    "final verdict",
}


@cache
def _segmenter():
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


def sentences(text: str) -> list[str]:
    """Sentences of an answer; heading lines and bullet markers set aside."""
    lines = []
    for line in text.splitlines():
        if _HEADING_LINE.fullmatch(line):
            continue
        stripped = _MARKER.sub("", line).replace("**", "").strip()
        if stripped:
            lines.append(stripped if stripped[-1] in ".!?:" else stripped + ".")
    joined = " ".join(lines)
    if not joined:
        return []
    return [s.strip() for s in _segmenter().segment(joined) if re.search(r"[^\W\d_]{3}", s)]


def aspects(text: str, objects: tuple[str, ...] = ()) -> list[tuple[str, int]]:
    """Named aspects (heading or label text, and its offset), without generic section
    names or the compared objects' own labels, in order, each once."""
    found = [(m.group("md") or m.group("bold"), m.start()) for m in _HEADING_LINE.finditer(text)]
    found += [(m.group("label"), m.start()) for m in _LABEL.finditer(text)]
    skip = _GENERIC | {o.lower().strip() for o in objects}
    seen: set[str] = set()
    out = []
    for name, start in sorted(found, key=lambda x: x[1]):
        clean = re.sub(r"^\d+[.)]\s*", "", name).strip(" :*#")
        key = clean.lower()
        if not clean or key in skip or key in seen:
            continue
        seen.add(key)
        out.append((clean, start))
    return out


_HEDGE = re.compile(r"\b(depends|depending|both|either)\b", re.IGNORECASE)


def _names_one(text: str, *, object1: str, object2: str) -> bool:
    lowered = text.lower()
    return any(o.strip() and o.lower().strip() in lowered for o in (object1, object2))


def _headed_choice(text: str, *, object1: str, object2: str) -> bool:
    """A short last line naming an object under a choice heading ("### Best option" /
    "**The best option:**" then "Baseball"): the layout the structured scenarios ask
    for, whose heading the sentence split sets aside."""
    lines = [_MARKER.sub("", line).replace("**", "").strip(" :*#") for line in text.splitlines()]
    lines = [line for line in lines if line]
    if len(lines) < 2:
        return False
    last, heading = lines[-1], lines[-2]
    if ":" in heading and len(heading.split(":", 1)[1].split()) > 0:
        return False  # the line above is a statement, not a heading
    return (
        len(last.split()) <= 6
        and _names_one(last, object1=object1, object2=object2)
        and not _HEDGE.search(last)
        and bool(_CHOICE.search(heading) or re.search(r"\b(verdict|conclusion)\b", heading, re.I))
    )


def _closing_choice(said: list[str], object1: str, *, object2: str) -> bool:
    """The closing sentences name an object with a choice word and do not hedge."""
    tail = " ".join(said[-3:])
    return (
        bool(_CHOICE.search(tail))
        and _names_one(tail, object1=object1, object2=object2)
        and not _HEDGE.search(tail)
    )


class RuleJudge:
    """Scores the criteria text analysis decides; the rest stay unscored."""

    name = "rules"

    def __init__(self, encoder=None) -> None:
        self.encoder = encoder

    def score(self, comparison: str, *, object1: str, object2: str) -> dict[int, float | None]:
        """Criterion → score (None: unscored)."""
        scores: dict[int, float | None] = dict.fromkeys(range(1, 16))
        said = sentences(comparison)
        named = aspects(comparison, (object1, object2))
        scores[15] = float(12 <= len(said) <= 20)
        scores[7] = float(
            _headed_choice(comparison, object1=object1, object2=object2)
            or _closing_choice(said, object1, object2=object2)
        )
        if named:
            intro = sentences(comparison[: named[0][1]])
            scores[1] = float(1 <= len(intro) <= 3)
            intro_text = " ".join(intro).lower()
            scores[3] = float(sum(n.lower() in intro_text for n, _ in named) >= 2)
        structured = len(named) >= 2
        scores[5] = float(structured)
        if structured:
            scores[2] = scores[4] = 1.0
            ends = [start for _, start in named[1:]] + [len(comparison)]
            bodies = [comparison[start:end] for (_, start), end in zip(named, ends, strict=True)]
            described = [len(re.findall(r"[^\W\d_]{2,}", b)) >= 6 for b in bodies]
            scores[6] = float(sum(described) >= len(described) / 2)
        if self.encoder is not None and len(said) >= 2:
            vectors = np.asarray(self.encoder.encode(said))
            similarity = vectors @ vectors.T
            np.fill_diagonal(similarity, 0)
            scores[13] = float(similarity.max() < DUPLICATE_COSINE)
        return scores


def merge(
    rules: dict[int, float | None], judge: dict[int, float] | None
) -> dict[int, float | None]:
    """The rules' scores where they scored, the judge's elsewhere."""
    judge = judge or {}
    return {c: rules[c] if rules.get(c) is not None else judge.get(c) for c in range(1, 16)}


RuleScorer = RuleJudge
"""The old name (before "scorer" came to mean a learned model only); kept for imports."""
