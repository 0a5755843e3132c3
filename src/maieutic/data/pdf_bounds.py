"""Bounds on the work a PDF asks of its reader, checked before any text is extracted.

A PDF is small on disk but its pages' content streams are compressed: a few hundred
kilobytes can inflate to tens of megabytes of text operators, and pypdf's extraction
then takes minutes and a gigabyte. So the page count and each page's decompressed
content are measured first (decoding with a cap, never the whole stream), and a PDF
over a bound is refused with one line naming the bound and how to raise it.
"""

from __future__ import annotations

from typing import Any

from maieutic.data.pdf_work import PageWork
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
    as the text extractor reads it (``maieutic.data.pdf_work``: a page's streams, plus
    each form it draws at every draw). Each stream is decoded with a cap, so a bomb is
    never inflated whole."""
    total = 0
    for number, page in enumerate(pages, 1):
        cap = min(MAX_PAGE_CONTENT_BYTES, MAX_PDF_CONTENT_BYTES - total)
        work = PageWork(cap)
        size = work.of_page(page)
        if size > MAX_PAGE_CONTENT_BYTES:
            forms = " with the forms it draws" if work.forms_counted else ""
            raise DataError(
                f"page {number}'s content inflates to over {_mb(MAX_PAGE_CONTENT_BYTES)}"
                f"{forms}, the limit for one page (raise MAIEUTIC_PDF_MAX_CONTENT_MB, a "
                "page may hold a tenth of it)",
                where=where,
            )
        total += size
        if total > MAX_PDF_CONTENT_BYTES:
            raise DataError(
                f"the PDF's content inflates to over {_mb(MAX_PDF_CONTENT_BYTES)} by page "
                f"{number} (split it, or raise MAIEUTIC_PDF_MAX_CONTENT_MB)",
                where=where,
            )
