"""Bounds on the work a PDF asks of its reader, checked before any text is extracted.

A PDF is small on disk but its pages' content streams are compressed: a few hundred
kilobytes can inflate to tens of megabytes of text operators, and pypdf's extraction
then takes minutes and a gigabyte. So the page count and each page's decompressed
content are measured first (decoding with a cap, never the whole stream), and a PDF
over a bound is refused with one line naming the bound and how to raise it.
"""

from __future__ import annotations

import re
import zlib
from typing import Any

from maieutic.env_numbers import env_number
from maieutic.errors import DataError

MAX_PDF_PAGES = int(env_number("MAIEUTIC_PDF_MAX_PAGES", 500))
"""A long book fits (and, at about 3,300 characters a page, more text than the
document scorer's 2,000,000-character limit lets through); a PDF of thousands of pages
ties the reader and what scores its text up for many minutes, so it is refused at
once."""
MAX_PDF_CONTENT_BYTES = int(
    env_number("MAIEUTIC_PDF_MAX_CONTENT_MB", 20, whole=False, least=0.001) * 1_000_000
)
"""The pages' content streams, decompressed, all together: a text page's stream is
5–50 KB, so 500 such pages fit; text extraction runs at 1–3 MB a second, so this
bounds it to tens of seconds, where a stream inflated to 60 MB took minutes."""
MAX_PAGE_CONTENT_BYTES = MAX_PDF_CONTENT_BYTES // 10
"""One page's share (2 MB by default, some 40 times a dense text page): one page of
inflated text operators would otherwise take the reader half a minute on its own."""
_FLATE = {"/FlateDecode", "/Fl"}


def _mb(size: int) -> str:
    return f"{size / 1_000_000:,.0f} MB"


def check_page_count(count: int, where: str) -> None:
    """Refuse a PDF with more than ``MAX_PDF_PAGES`` pages, before reading any."""
    if count > MAX_PDF_PAGES:
        raise DataError(
            f"the PDF has {count:,} pages, over the {MAX_PDF_PAGES:,}-page limit "
            "(split it, or raise MAIEUTIC_PDF_MAX_PAGES)",
            where=where,
        )


def declared_page_count(reader: Any) -> int:
    """The page count that the PDF's page tree states (``/Count``): read without
    walking the tree, which takes seconds for thousands of pages (0 when unstated; the
    pages found are counted again once the tree is walked)."""
    try:
        count = reader.trailer["/Root"]["/Pages"]["/Count"]
        return int(count) if isinstance(count, int) else 0
    except Exception:  # a damaged tree: pypdf's walk decides, and is counted then
        return 0


def check_content_size(pages: Any, where: str) -> None:
    """Refuse a PDF whose pages' content decompresses to more than
    ``MAX_PAGE_CONTENT_BYTES`` on one page or ``MAX_PDF_CONTENT_BYTES`` in all, counted
    as the text extractor reads it: a page's streams, plus each form XObject it draws
    (and each form those draw) as many times as it is drawn. Each stream is decoded
    with a cap, so a bomb is never inflated whole."""
    total = 0
    for number, page in enumerate(pages, 1):
        cap = min(MAX_PAGE_CONTENT_BYTES, MAX_PDF_CONTENT_BYTES - total)
        size = _Work(cap).of(_contents(page), page.get("/Resources"))
        if size > MAX_PAGE_CONTENT_BYTES:
            raise DataError(
                f"page {number}'s content inflates to over {_mb(MAX_PAGE_CONTENT_BYTES)} "
                "with the forms it draws, the limit for one page (raise "
                "MAIEUTIC_PDF_MAX_CONTENT_MB, a page may hold a tenth of it)",
                where=where,
            )
        total += size
        if total > MAX_PDF_CONTENT_BYTES:
            raise DataError(
                f"the PDF's content inflates to over {_mb(MAX_PDF_CONTENT_BYTES)} by page "
                f"{number} (split it, or raise MAIEUTIC_PDF_MAX_CONTENT_MB)",
                where=where,
            )


_DRAW = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s*Do(?![^\s/\[\]()<>{}%])")
"""``/Name Do``: draw the XObject named ``Name`` (the extractor reads a form's text at
every draw)."""
_MAX_FORM_DEPTH = 100
"""Forms inside forms deeper than this are refused: no document nests figures so deep,
and walking further would run into Python's recursion limit (here and in the extractor)."""


class _Work:
    """The bytes of content the extractor goes through for one page, counted up to
    ``cap`` (past it the count stops growing: the page is refused either way)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._forms: dict[int, int] = {}  # a form's cost, once worked out, by object
        self._drawing: set[int] = set()  # the forms being worked out, outermost first

    def of(self, streams: list[Any], resources: Any, depth: int = 0) -> int:
        """The cost of ``streams`` drawn with ``resources``: their own decoded bytes,
        plus every form they draw, times the draws."""
        total, drawn = 0, {}
        for stream in streams:
            data = _decoded(stream, self.cap + 1)
            total += len(data)
            for name in _DRAW.findall(data):
                drawn[name] = drawn.get(name, 0) + 1
        forms = _forms(resources)
        for name, times in drawn.items():
            form = forms.get("/" + name.decode("latin-1"))
            if form is not None and total <= self.cap:
                total += times * self._form(form, resources, depth + 1)
        return min(total, self.cap + 1)

    def _form(self, form: Any, parent_resources: Any, depth: int) -> int:
        key = id(form)
        if key in self._drawing:
            return 0  # a form drawing itself: the extractor skips the cycle, so do we
        if depth > _MAX_FORM_DEPTH:
            return self.cap + 1  # nested deeper than any real document
        if key not in self._forms:
            own = form.get("/Resources")
            self._drawing.add(key)
            try:
                cost = self.of([form], own if own is not None else parent_resources, depth)
            finally:
                self._drawing.discard(key)
            self._forms[key] = cost
        return self._forms[key]


def _contents(page: Any) -> list[Any]:
    contents = page.get("/Contents")
    contents = contents.get_object() if contents is not None else None
    if isinstance(contents, list):
        return [part.get_object() for part in contents]
    return [] if contents is None else [contents]


def _forms(resources: Any) -> dict[str, Any]:
    """The form XObjects ``resources`` names, by name."""
    resources = resources.get_object() if resources is not None else {}
    xobjects = resources.get("/XObject") if hasattr(resources, "get") else None
    xobjects = xobjects.get_object() if xobjects is not None else {}
    found = {}
    for name, ref in xobjects.items() if hasattr(xobjects, "items") else ():
        xobject = ref.get_object()
        if hasattr(xobject, "get") and xobject.get("/Subtype") == "/Form":
            found[str(name)] = xobject
    return found


def _decoded(stream: Any, cap: int) -> bytes:
    """The stream's decoded bytes, at most ``cap`` of them: Flate is inflated at most
    ``cap`` bytes; other filters (rare in content) are decoded by pypdf, which bounds
    them itself."""
    raw = getattr(stream, "_data", None)
    if not isinstance(raw, bytes):
        return b""  # not a stream: pypdf's extractor skips it too
    filters = stream.get("/Filter")
    filters = [filters] if isinstance(filters, str) else list(filters or [])
    if not filters:
        return raw[:cap]
    if len(filters) == 1 and filters[0] in _FLATE:
        try:
            return zlib.decompressobj().decompress(raw, cap)
        except zlib.error:
            pass  # damaged: pypdf's own repair decides, under its own output limit
    try:
        return stream.get_data()[:cap]
    except Exception:  # a stream pypdf cannot decode is skipped by its extractor too
        return b""
