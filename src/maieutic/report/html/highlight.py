"""Gold and predicted spans marked in the text they were taken from."""

from __future__ import annotations

import re
from collections.abc import Sequence

from markupsafe import Markup, escape


def locate(text: str, *, span: str) -> tuple[int, int] | None:
    """Where ``span`` first occurs in ``text``: exactly, then ignoring case, then
    ignoring case and differences in white space (None when it does not occur)."""
    span = span.strip()
    if not span:
        return None
    start = text.find(span)
    if start >= 0:
        return start, start + len(span)
    start = text.lower().find(span.lower())
    if start >= 0:
        return start, start + len(span)
    words = span.split()
    found = re.search(r"\s+".join(re.escape(w) for w in words), text, re.IGNORECASE)
    return (found.start(), found.end()) if found else None


def mark_spans(
    text: str, gold: Sequence[str], *, predicted: Sequence[str]
) -> tuple[Markup, list[str]]:
    """``text`` escaped, with gold spans in ``<mark class="gold">``, predicted ones in
    ``<mark class="pred">`` and their overlap in ``<mark class="both">``; also the
    spans that were not found in it."""
    flags = [0] * len(text)  # bit 1: gold, bit 2: predicted
    missing = []
    for bit, spans in ((1, gold), (2, predicted)):
        for span in spans:
            where = locate(text, span=span)
            if where is None:
                missing.append(span)
                continue
            for i in range(*where):
                flags[i] |= bit
    classes = {1: "gold", 2: "pred", 3: "both"}
    out, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and flags[j] == flags[i]:
            j += 1
        piece = escape(text[i:j])
        kind = flags[i]
        out.append(
            Markup('<mark class="{}">{}</mark>').format(classes[kind], piece) if kind else piece
        )
        i = j
    return Markup("").join(out), missing
