"""How much content the text extractor goes through for one PDF page, counted before
it runs (``maieutic.data.pdf_bounds`` refuses a page or a PDF over its limits).

The count mirrors pypdf's extractor (7.1 and later), so that an ordinary document is
never refused for work the extractor does not do, and a crafted one cannot hide work
it does:

- a page's own content streams count in full (the plain and the layout reader both
  parse them; the limits are set with that in mind);
- each ``/Name Do`` that draws a form XObject counts that form again, at every draw
  (the extractor reads a form's text each time it is drawn), and forms drawn inside
  it multiply;
- a form without resources of its own gives the extractor no font, so it returns at
  once: such a form (matplotlib draws every marker of a plot as one) costs nothing;
- a form whose content has no operator that can add text is only scanned for one:
  it counts a twentieth of its size per draw;
- a form drawing itself, directly or through others, is skipped where the walk meets
  it again, as the extractor skips it; a cost worked out with such a cut is not
  reused where the cut does not apply;
- a ``Do`` whose name cannot be read (an escape, a comment before it) counts as the
  costliest form the resources hold, so no spelling lowers the count;
- ``Do`` inside a text string or a comment is not a draw.
"""

from __future__ import annotations

import contextlib
import re
import zlib
from typing import Any

_TEXT_OPERATORS = (b"Tj", b"TJ", b"Do", b"'", b'"')
"""The operators that can add text: content without any of them is never parsed."""
_FLATE = {"/FlateDecode", "/Fl"}
_STRING = re.compile(rb"\((?:\\.|[^\\()])*\)", re.DOTALL)
"""A literal string with no string inside it (removed innermost first)."""
_HEX_STRING = re.compile(rb"<[0-9A-Fa-f\s]*>")
_COMMENT = re.compile(rb"%[^\r\n]*")
_DELIMITER = rb"\s/\[\]()<>{}%"
_DO = re.compile(rb"(?<![^" + _DELIMITER + rb"])Do(?![^" + _DELIMITER + rb"])")
_NAMED_DO = re.compile(rb"/([^" + _DELIMITER + rb"]*)\s*Do(?![^" + _DELIMITER + rb"])")
_MAX_FORM_DEPTH = 100
"""Forms inside forms deeper than this count as over any limit: no document nests
figures so deep, and the walk (here and in the extractor) would reach Python's
recursion limit."""
_MAX_VISITS = 20_000
"""Form draws worked out for one page before it counts as over any limit: the
extractor itself stops after 5,000 form draws a page."""
_SCAN_SHARE = 20
"""A form without text operators is scanned, not parsed: a twentieth of its size."""


class PageWork:
    """The bytes of content the extractor goes through for one page, counted up to
    ``cap`` (past it the count stops growing: the page is refused either way)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.forms_counted = False
        """Whether any form added to the count (the refusal says so)."""
        self._costs: dict[int, int] = {}  # a form's cost, when worked out without a cut
        self._decoded: dict[int, bytes] = {}
        self._drawing: list[int] = []  # the forms being worked out, outermost first
        self._cuts = 0
        self._visits = 0

    def of_page(self, page: Any) -> int:
        """The page's cost: its content streams, and every form they draw."""
        return self._streams(_contents(page), page.get("/Resources"), 0)

    def _streams(self, streams: list[Any], resources: Any, depth: int) -> int:
        total = 0
        draws: list[bytes | None] = []
        for stream in streams:
            data = self._data(stream)
            total += len(data)
            draws += _draws(data)
        forms = _forms(resources)
        costliest: int | None = None
        for name in draws:
            if total > self.cap:
                break
            form = forms.get(name) if name is not None else None
            if form is not None:
                total += self._form(form, depth + 1)
            elif forms:  # a draw whose name could not be read: the worst it could be
                if costliest is None:
                    costliest = max(self._form(f, depth + 1) for f in forms.values())
                total += costliest
        return min(total, self.cap + 1)

    def _form(self, form: Any, depth: int) -> int:
        key = id(form)
        if key in self._drawing:
            self._cuts += 1
            return 0  # a form drawing itself: the extractor skips the cycle, so do we
        if key in self._costs:
            return self._costs[key]
        self._visits += 1
        if depth > _MAX_FORM_DEPTH or self._visits > _MAX_VISITS:
            return self.cap + 1
        resources = form.get_inherited("/Resources", None)
        resources = resources.get_object() if resources is not None else None
        if not isinstance(resources, dict) or not resources:
            cost = 0  # no font to show text with: the extractor returns at once
        elif not any(op in self._data(form) for op in _TEXT_OPERATORS):
            cost = len(self._data(form)) // _SCAN_SHARE
        else:
            cuts, self.forms_counted = self._cuts, True
            self._drawing.append(key)
            try:
                cost = self._streams([form], resources, depth)
            finally:
                self._drawing.pop()
            if self._cuts != cuts:
                return cost  # true here, not where the cycle is entered elsewhere
        self._costs[key] = cost
        return cost

    def _data(self, stream: Any) -> bytes:
        key = id(stream)
        if key not in self._decoded:
            self._decoded[key] = decoded(stream, self.cap + 1)
        return self._decoded[key]


def _draws(data: bytes) -> list[bytes | None]:
    """The name of each ``Do`` in content ``data`` (None where it cannot be read), with
    strings and comments taken out first."""
    if b"Do" not in data:
        return []
    previous = None
    while previous != data:  # strings inside strings: innermost first
        previous, data = data, _STRING.sub(b" ", data)
    data = _COMMENT.sub(b" ", _HEX_STRING.sub(b" ", data))
    named = {m.end(): _name(m.group(1)) for m in _NAMED_DO.finditer(data)}
    return [named.get(m.end()) for m in _DO.finditer(data)]


def _name(raw: bytes) -> bytes | None:
    """A name as the PDF means it (``#xx`` escapes decoded), as pypdf keys it."""
    try:
        plain = re.sub(rb"#([0-9A-Fa-f]{2})", lambda m: bytes([int(m.group(1), 16)]), raw)
        return b"/" + plain
    except ValueError:  # pragma: no cover - the pattern only matches hex digits
        return None


def _forms(resources: Any) -> dict[bytes, Any]:
    """The form XObjects ``resources`` names, by name (UTF-8 and Latin-1 spellings)."""
    resources = resources.get_object() if resources is not None else {}
    xobjects = resources.get("/XObject") if hasattr(resources, "get") else None
    xobjects = xobjects.get_object() if xobjects is not None else {}
    found: dict[bytes, Any] = {}
    for name, ref in xobjects.items() if hasattr(xobjects, "items") else ():
        xobject = ref.get_object()
        if hasattr(xobject, "get") and xobject.get("/Subtype") == "/Form":
            for encoding in ("latin-1", "utf-8"):
                with contextlib.suppress(UnicodeEncodeError):  # not in Latin-1
                    found.setdefault(str(name).encode(encoding), xobject)
    return found


def _contents(page: Any) -> list[Any]:
    contents = page.get("/Contents")
    contents = contents.get_object() if contents is not None else None
    if isinstance(contents, list):
        return [part.get_object() for part in contents]
    return [] if contents is None else [contents]


def decoded(stream: Any, cap: int) -> bytes:
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
