"""Reflowing the text layer of a PDF into paragraphs, so it reads like the text file it
was printed from.

A PDF's text layer holds the printed lines: every line break of the page, words the
printer hyphenated at a line end, page numbers, and no blank line between paragraphs.
Read as it is, a sentence ends wherever a line does ("…entering its historic"), which
cuts spans, claims and sentence units in two. The rules, applied to each page's lines
and then across the page breaks (a sentence that runs onto the next page is joined):

- Page furniture: a bare page number ("7", "- 7 -", "Page 7", "7 / 12", "7 of 12") as
  the first or last line of a page is dropped. Numbers inside the page are kept.
- Paragraph breaks: a line ends its paragraph when the next line's first word would
  have fitted on it (it is shorter than ``FIT`` of the page's usual line length, see
  ``_width``) and it either ends a sentence (``.``, ``!``, ``?`` or ``:``, perhaps
  before a closing quote or bracket) or is followed by a line starting with a capital
  letter or a digit: the end of a paragraph, a heading, a label. A wrapped line cannot
  end early, since the printer only wraps a word that does not fit. A heading set in
  a larger font may fill its line, so the first line of a paragraph in title case
  (every word of four letters or more capitalised), with no end punctuation and a
  capital after it, is a heading of its own too. A blank line is a paragraph break,
  unless the sentence plainly runs on (no end punctuation before it, a lower-case
  word after it).
- List items: a line starting with a bullet or a number ("- ", "• ", "3. ", "(2) ")
  starts a line of its own; its wrapped lines are joined to it.
- Hyphens at a line end: a word split by a soft hyphen is joined. A word split by a
  hyphen before a lower-case letter ("histo-" / "ric") is joined without the hyphen,
  unless the document also writes that pair with a hyphen inside a line ("well-known"
  elsewhere keeps "well-" / "known" as "well-known"): printers hyphenate far more
  words than compounds happen to break at a line end, and a compound named once and
  broken there loses its hyphen ("wellknown"), the smaller error. Before a capital or
  a digit the hyphen is kept ("anti-" / "American", "COVID-" / "19"). An unspaced
  dash at a line end ("now—" / "then") is joined without a space.
- Any other line break is a wrapped line: joined with one space. Runs of spaces
  inside a line become one space; soft hyphens inside a line (invisible) go.

Before that, ``respace`` removes the word gaps that a reader guessed from a typesetter's
kerning moves ("b udget"), using the page's laid-out text (glyphs placed by position).

Known limits: a heading that wraps onto a second line without a hyphen becomes two
short paragraphs; a paragraph whose last line leaves no room for the next paragraph's
first word (it is long, or the page indents it) runs on into the next paragraph;
multi-column pages are read in the order the PDF stores them.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import NamedTuple

FIT = 0.85
"""How much of the usual line length a line plus the next word may fill and still count
as ended on purpose: room for proportional fonts, whose letters differ in width."""
_PAGE_NUMBER = re.compile(
    r"^(?:page\s+)?[-–—]?\s*\d{1,4}\s*[-–—]?(?:\s*(?:/|of)\s*\d{1,4})?$", re.IGNORECASE
)
_LIST_ITEM = re.compile(r"^(?:[-*•▪◦+]|\(?\d{1,3}[.)]|\([a-z]\))\s")
_SENTENCE_END = re.compile(r"[.!?:][\"'”’)\]»]*$")
_HYPHENATED = re.compile(r"([A-Za-z]+)[-‐]$")
_COMPOUND = re.compile(r"\b[A-Za-z]+-[A-Za-z]+\b")
_SOFT_HYPHEN = "\u00ad"


def respace(plain: str, *, layout: str) -> str:
    """A page's text in reading order (``plain``) with only the word gaps that its
    laid-out text (``layout``, the same glyphs placed by position) also has.

    A reader that guesses word gaps from pen moves splits words wherever a typesetter
    moved the pen to kern ("In vest", "b uilds": groff does, and its word spacing is
    not counted in the width of what came before). The laid-out text places each glyph
    by its measured position and has no such gaps, but it may order the lines
    differently (columns side by side, a page number first or last), so only a line
    whose glyphs the laid-out text holds as one line too is respaced; every other line
    stays as it was. Gaps are only ever removed, never added."""
    gaps_of: dict[str, set[int]] = {}
    for line in layout.splitlines():
        gaps_of.setdefault("".join(line.split()), _gaps(line))
    lines = []
    for line in plain.split("\n"):
        gaps = gaps_of.get("".join(line.split()))
        if gaps is None or not line.strip():
            lines.append(line)
            continue
        kept, count = [], 0
        for char in line.strip():
            if char.isspace():
                if count in gaps and not kept[-1].isspace():
                    kept.append(" ")
            else:
                kept.append(char)
                count += 1
        lines.append("".join(kept))
    return "\n".join(lines)


def _gaps(line: str) -> set[int]:
    """Where a line has a gap: the number of glyphs (non-spaces) before each."""
    return set(accumulate(len(word) for word in line.split()[:-1]))


class Reflowed(NamedTuple):
    """A PDF's text reflowed: each page on its own, and the whole document (sentences
    that run across a page break joined)."""

    pages: list[str]
    text: str


def reflow(text: str) -> str:
    """One page's printed lines as paragraphs (see the module's rules)."""
    lines = _page_lines(text)
    width = _width(lines)
    return _reflow([(line, width) for line in lines], _compounds([text]))


def reflow_pages(pages: list[str]) -> Reflowed:
    """Every page reflowed on its own, and all pages reflowed as one text."""
    compounds = _compounds(pages)
    every: list[tuple[str, int]] = []
    alone = []
    for page in pages:
        lines = _page_lines(page)
        width = _width(lines)
        every += [(line, width) for line in lines]
        alone.append(_reflow([(line, width) for line in lines], compounds))
    return Reflowed(alone, _reflow(every, compounds))


def _page_lines(page: str) -> list[str]:
    """The page's lines, spaces collapsed, without blank lines or page numbers at its
    top and bottom, and without soft hyphens but one ending a line (where it joins)."""
    lines = [" ".join(line.split()) for line in page.replace("\r", "\n").split("\n")]
    lines = [line[:-1].replace(_SOFT_HYPHEN, "") + line[-1:] for line in lines]
    while lines and (not lines[0] or _PAGE_NUMBER.match(lines[0])):
        lines.pop(0)
    while lines and (not lines[-1] or _PAGE_NUMBER.match(lines[-1])):
        lines.pop()
    return lines


def _width(lines: list[str]) -> int:
    """The page's usual length of a full line: the 80th percentile of its line lengths,
    so that a few long lines (a URL, a footnote in small print) do not set it."""
    lengths = sorted(len(line) for line in lines if line)
    return lengths[int(0.8 * (len(lengths) - 1))] if lengths else 0


def _compounds(pages: list[str]) -> set[str]:
    """Hyphenated words written inside a line somewhere in the document, lower-cased."""
    return {m.group().lower() for page in pages for m in _COMPOUND.finditer(page)}


def _reflow(lines: list[tuple[str, int]], compounds: set[str]) -> str:
    """Lines (with their page's usual line length) joined by the module's rules."""
    parts: list[str] = []  # the printed lines and what joins them, joined once at the end
    previous, width, blank, starts = "", 0, False, True
    for line, line_width in lines:
        if not line:
            blank = bool(parts)
            continue
        if not parts:
            separator = ""
        elif blank and (_SENTENCE_END.search(previous) or not line[0].islower()):
            separator = "\n\n"
        else:
            separator = _separator(previous, width, starts, line=line, compounds=compounds)
            if separator == "-":  # a word hyphenated at the line end: the hyphen goes
                parts[-1], separator = parts[-1][:-1], ""
        parts += [separator, line]
        previous, width, blank = line, line_width, False
        starts = separator in ("\n", "\n\n") or len(parts) == 2
    return "".join(parts)


def _is_title(line: str) -> bool:
    """Whether a line reads as a heading in title case: no end punctuation, and every
    word of four letters or more capitalised (two such words at least)."""
    long = [w for w in re.findall(r"[^\W\d_]+", line) if len(w) >= 4]
    return len(long) >= 2 and all(w[0].isupper() for w in long) and line[-1].isalnum()


def _separator(previous: str, width: int, starts: bool, *, line: str, compounds: set[str]) -> str:
    """What joins the printed line ``previous`` (``starts``: the first of its paragraph)
    to the next: a paragraph break, a line break, a space, nothing, or ``-`` (nothing,
    and drop the hyphen or soft hyphen ending ``previous``)."""
    if _LIST_ITEM.match(line):
        return "\n"
    capital = line[0].isupper() or line[0].isdigit()
    fits = len(previous) + 1 + len(line.split()[0]) <= FIT * width
    if (fits and (capital or _SENTENCE_END.search(previous))) or (
        capital and starts and _is_title(previous)
    ):
        return "\n\n"
    if previous.endswith(_SOFT_HYPHEN):
        return "-"
    split = _HYPHENATED.search(previous)
    if split and line[0].isalpha() and line[0].islower():
        right = re.match(r"[A-Za-z]+", line)
        pair = f"{split.group(1)}-{right.group() if right else ''}".lower()
        return "" if pair in compounds else "-"
    if split or (previous.endswith("—") and not previous.endswith(" —")):
        return ""
    return " "
