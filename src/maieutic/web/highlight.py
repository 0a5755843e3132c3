"""The Ask page's text with the spans of its questions marked.

The text is cut at every span boundary into plain segments, each with the numbers of
the spans covering it; the template escapes every segment and wraps the covered ones
in ``<mark>``. No markup is ever built by joining strings, so user text cannot become
markup however it is written.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

MAX_SHOWN_CHARS = 50_000
"""A long document is shown up to here (spans beyond it are listed, not marked)."""


@dataclass(frozen=True)
class Segment:
    """A piece of the text and the spans (numbered like the questions) that cover it."""

    text: str
    spans: tuple[int, ...] = ()

    @property
    def css(self) -> str:
        """The highlight classes of the piece (empty when no span covers it)."""
        if not self.spans:
            return ""
        colours = " ".join(f"hl-{n % 2}" for n in self.spans[:2])
        return f"hl {colours}" + (" hl-overlap" if len(self.spans) > 1 else "")

    @property
    def tip(self) -> str:
        """Which questions the piece belongs to, for the tooltip."""
        return ", ".join(f"question {n + 1}" for n in self.spans)


def segments(
    text: str, marked: list[dict[str, Any]], limit: int = MAX_SHOWN_CHARS
) -> list[Segment]:
    """``text`` (up to ``limit`` characters) cut into segments at the boundaries of the
    ``marked`` spans (each with ``start``/``end`` offsets, numbered in order)."""
    shown = text[:limit]
    spans = []
    for n, span in enumerate(marked):
        start, end = span.get("start"), span.get("end")
        if isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(shown):
            spans.append((n, start, end))
    cuts = sorted({0, len(shown), *(s for _, s, _ in spans), *(e for _, _, e in spans)})
    out = []
    for a, b in itertools.pairwise(cuts):
        covering = tuple(n for n, s, e in spans if s <= a and b <= e)
        out.append(Segment(shown[a:b], covering))
    return out
