"""Reading a PDF's text layer: bounded first (``maieutic.data.pdf_bounds``), then
extracted page by page with pypdf and reflowed into paragraphs
(``maieutic.data.reflow``)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from maieutic.data.files import read_bytes
from maieutic.data.pdf_bounds import check_content_size, check_page_count, declared_page_count
from maieutic.data.reflow import Reflowed, reflow_pages, respace
from maieutic.errors import DataError

__all__ = ["ENCRYPTED_PDF", "read_pdf"]


def _page_text(page: Any) -> str:
    """A PDF page's text in reading order, with the word gaps that the reader guessed
    from kerning moves removed by comparing with its laid-out text (``respace``)."""
    plain = page.extract_text() or ""
    try:
        layout = page.extract_text(extraction_mode="layout", layout_mode_space_vertically=False)
    except Exception:  # the layout reader fails on pages the plain one reads: keep those
        return plain
    return respace(plain, layout=layout or "")


ENCRYPTED_PDF = (
    "the PDF is encrypted, and encrypted PDFs are not read; save an unencrypted copy "
    "(e.g. print it to PDF) and pass that"
)


def _pdf_pages(reader: Any, where: str, max_chars: int | None, *, limit: str) -> list[str]:
    """Each page's text, once the page count and the inflated content are within
    bounds (``maieutic.data.pdf_bounds``); extraction stops as soon as the text is
    clearly over ``max_chars`` (whitespace runs counted as one, 5% spare for what
    reflowing drops), instead of reading the rest of a long PDF for nothing."""
    check_page_count(declared_page_count(reader), where)  # before the tree is walked
    count = len(reader.pages)
    check_page_count(count, where)
    check_content_size(reader.pages, where)
    pages: list[str] = []
    chars = 0
    for number, page in enumerate(reader.pages, 1):
        pages.append(_page_text(page))
        # as the reflowed text will count it: whitespace runs as one, soft hyphens gone
        chars += len(" ".join(pages[-1].replace("\u00ad", "").split()))
        if max_chars is not None and chars > max_chars * 1.05:
            raise DataError(
                f"the PDF's text is over the {max_chars:,}-character limit by page "
                f"{number} of {count:,} (split it, or raise {limit})",
                where=where,
            )
    return pages


def read_pdf(
    path: Path, max_chars: int | None = None, limit: str = "the character limit"
) -> Reflowed:
    """The text layer of a PDF reflowed into paragraphs (``maieutic.data.reflow``): each
    page, and the whole text with sentences joined across page breaks (one error line
    when it has no text, too many pages or too much inflated content, or text clearly
    over ``max_chars``, the limit that the setting ``limit`` raises)."""
    try:
        from pypdf import PdfReader
        from pypdf.errors import DependencyError, FileNotDecryptedError, PdfReadError
    except ImportError as exc:  # pragma: no cover - pypdf is a dependency
        raise DataError(f"reading PDF needs pypdf ({exc})", where=str(path)) from None
    import logging

    # pypdf logs each repair it attempts ("EOF marker not found"…): the user gets one
    # line, ours, instead
    pdf_log = logging.getLogger("pypdf")
    # through the one reader: a regular file, within the size limit (never a FIFO)
    data = read_bytes(path)
    level, pdf_log.level = pdf_log.level, logging.CRITICAL
    reader = None
    try:
        reader = PdfReader(io.BytesIO(data))
        pages = _pdf_pages(reader, str(path), max_chars, limit=limit)
    except DataError:
        raise
    except (FileNotDecryptedError, DependencyError) as exc:
        # a password, or AES (decrypting it needs a library that is not installed); the
        # RC4-encrypted PDFs that open without a password are read
        # AES-256 fails inside PdfReader() itself, before there is a reader to ask
        encrypted = reader.is_encrypted if reader is not None else b"/Encrypt" in data
        why = ENCRYPTED_PDF if encrypted else f"not a readable PDF ({exc})"
        raise DataError(why, where=str(path)) from None
    except (PdfReadError, OSError, ValueError) as exc:
        raise DataError(f"not a readable PDF ({exc})", where=str(path)) from None
    except Exception as exc:  # pypdf raises many types on damaged files (limits, recursion)
        raise DataError(
            f"not a readable PDF ({type(exc).__name__}: {exc})", where=str(path)
        ) from None
    finally:
        pdf_log.setLevel(level)
    reflowed = reflow_pages(pages)
    if not reflowed.text.strip():
        raise DataError("the PDF has no text layer (a scan?); run OCR first", where=str(path))
    return reflowed
