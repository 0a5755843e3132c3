"""Documents and question sets for AURA ("AURA-QG: Automated Unsupervised Replicable
Assessment for Question Generation"), and the document's Information Units.

A document (Markdown, plain text, PDF with a text layer, or the ``{"passage",
"questions1", "questions2"}`` JSON) is cleaned of headings, image references, tables
and footnotes, split into blocks — paragraphs and lists — and turned into units:

- necessary: each sentence of a paragraph (content-poor ones dropped) and each whole
  list block;
- optional: 2- and 3-sentence sliding windows inside a paragraph, and each single list
  item (its parent is its list).

Unlike the reference code: a heading ends a block even without a blank line after it
(the paragraph under it is kept), a hyphen inside prose ("2015 - 2020") is never a
list item (list markers count only at the start of a line), and nothing is downloaded
(sentences are split by pysbd, rule-based).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from maieutic.data.files import read_text, type_name
from maieutic.errors import DataError

_HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
_SETEXT = re.compile(r"^\s{0,3}(=+|-{3,})\s*$")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_SOURCE_LINE = re.compile(r"^\s*(source|chart)\b[^\n]*$", re.IGNORECASE)
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_FOOTNOTE_DEF = re.compile(r"^\[\^[^\]]+\]:.*$")
_FOOTNOTE_REF = re.compile(r"\[\^[^\]]+\]")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
LIST_ITEM = re.compile(r"^\s*(?:[-*•+]|\(?\d{1,3}[.)])\s+")
MIN_WORDS = 3
"""A paragraph sentence with fewer words is content-poor and not a unit."""
MAX_ITEM_SENTENCES = 2
"""A "list" whose items run longer than this is prose laid out as bullets: its
sentences become units, as in the reference pipeline."""


@dataclass(frozen=True)
class Block:
    """A paragraph (its text) or a list (its items, and a lead-in line if any)."""

    kind: str
    text: str
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class Unit:
    """An Information Unit: a candidate answer span with its place in the document."""

    chunk_id: int
    text: str
    type: str
    """``necessary`` or ``optional``."""
    subtype: str
    """``paragraph`` (a sentence), ``list``, ``window`` or ``bullet``."""
    block: int
    parent_chunk_ids: tuple[int, ...] = ()
    items: tuple[str, ...] = ()
    """A list unit's items (for list refinement)."""
    sentences: tuple[str, ...] = ()
    """A window's sentences (for linking to necessary units)."""

    def to_json(self) -> dict:
        """The unit as written in results."""
        return {
            "chunk_id": self.chunk_id,
            "text": self.text,
            "type": self.type,
            "subtype": self.subtype,
            "parent_chunk_ids": list(self.parent_chunk_ids),
        }


@dataclass
class Document:
    """A cleaned document, and the question sets that came with it (sample JSON)."""

    text: str
    source: str
    question_sets: dict[str, list[str]] = field(default_factory=dict)
    pages: list[str] = field(default_factory=list)
    """A PDF's pages (for generation page by page)."""


@cache
def _segmenter():
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


def sentences(text: str) -> list[str]:
    """Sentences of a paragraph (rule-based; nothing downloaded)."""
    if not text.strip():
        return []
    return [s.strip() for s in _segmenter().segment(text) if s.strip()]


def clean(markdown: str) -> list[str]:
    """Lines of the document without images (and their source lines), tables, footnotes
    and comments; headings become blank lines, so they always end a block."""
    text = _HTML_COMMENT.sub("", markdown.replace("\r\n", "\n"))
    lines = []
    previous_image = False
    for line in text.split("\n"):
        if _HEADING.match(line) or _TABLE_ROW.match(line) or _FOOTNOTE_DEF.match(line):
            lines.append("")
            previous_image = False
            continue
        if _SETEXT.match(line) and lines and lines[-1].strip() and not LIST_ITEM.match(line):
            lines[-1] = ""  # the line above was a setext heading
            lines.append("")
            continue
        had_image = bool(_IMAGE.search(line))
        line = _FOOTNOTE_REF.sub("", _IMAGE.sub("", line))
        if previous_image and _SOURCE_LINE.match(line):
            line = ""
        previous_image = had_image or (previous_image and not line.strip())
        lines.append(line)
    return lines


def blocks(markdown: str) -> list[Block]:
    """Paragraph and list blocks of a document."""
    out: list[Block] = []
    paragraph: list[str] = []
    items: list[str] = []

    def flush_paragraph() -> None:
        if paragraph:
            out.append(Block("paragraph", " ".join(paragraph)))
            paragraph.clear()

    def flush_list() -> None:
        if items:
            lead = ""
            if out and out[-1].kind == "paragraph" and out[-1].text.endswith(":"):
                lead = out.pop().text  # "Do the following:" belongs to its list
            out.append(Block("list", lead, tuple(items)))
            items.clear()

    for line in clean(markdown):
        if not line.strip():
            flush_paragraph()
            flush_list()
            continue
        if LIST_ITEM.match(line):
            flush_paragraph()
            items.append(LIST_ITEM.sub("", line).strip())
        elif items and line.startswith((" ", "\t")):
            items[-1] += " " + line.strip()  # an item's continuation line
        else:
            flush_list()
            paragraph.append(line.strip())
    flush_paragraph()
    flush_list()
    return out


def _list_text(block: Block) -> str:
    lines = [block.text] if block.text else []
    return "\n".join(lines + [f"- {item}" for item in block.items])


def build_units(document_blocks: list[Block]) -> list[Unit]:
    """Necessary units first (in document order), then optional ones; windows get their
    parents later (by similarity), bullets point at their list."""
    necessary: list[Unit] = []
    pending: list[tuple[str, int, tuple[str, ...]]] = []  # windows: text, block, sentences
    bullets: list[tuple[str, int, int]] = []  # text, block, parent id
    for index, block in enumerate(document_blocks):
        prose = block.kind == "paragraph" or any(
            len(sentences(item)) > MAX_ITEM_SENTENCES for item in block.items
        )
        if prose:
            text = block.text if block.kind == "paragraph" else " ".join((block.text, *block.items))
            kept = [s for s in sentences(text) if len(re.findall(r"[A-Za-z]{2,}", s)) >= MIN_WORDS]
            for sentence in kept:
                necessary.append(Unit(len(necessary), sentence, "necessary", "paragraph", index))
            for size in (2, 3):
                for start in range(len(kept) - size + 1):
                    part = tuple(kept[start : start + size])
                    pending.append((" ".join(part), index, part))
        else:
            chunk = len(necessary)
            necessary.append(
                Unit(chunk, _list_text(block), "necessary", "list", index, items=block.items)
            )
            bullets += [(item, index, chunk) for item in block.items if item.strip()]
    units = list(necessary)
    for text, block, part in pending:
        units.append(Unit(len(units), text, "optional", "window", block, sentences=part))
    for text, block, parent in bullets:
        units.append(Unit(len(units), text, "optional", "bullet", block, (parent,)))
    return units


def read_pdf(path: Path) -> list[str]:
    """The text layer of a PDF, page by page (one error line when it has none)."""
    try:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError
    except ImportError as exc:  # pragma: no cover - pypdf is a dependency
        raise DataError(f"reading PDF needs pypdf ({exc})", where=str(path)) from None
    import logging

    # pypdf logs each repair it attempts ("EOF marker not found"…): the user gets one
    # line, ours, instead
    pdf_log = logging.getLogger("pypdf")
    level, pdf_log.level = pdf_log.level, logging.CRITICAL
    try:
        pages = [page.extract_text() or "" for page in PdfReader(str(path)).pages]
    except (PdfReadError, OSError, ValueError) as exc:
        raise DataError(f"not a readable PDF ({exc})", where=str(path)) from None
    except Exception as exc:  # pypdf raises many types on damaged files (limits, recursion)
        raise DataError(
            f"not a readable PDF ({type(exc).__name__}: {exc})", where=str(path)
        ) from None
    finally:
        pdf_log.setLevel(level)
    if not "".join(pages).strip():
        raise DataError("the PDF has no text layer (a scan?); run OCR first", where=str(path))
    return pages


def read_document(path: str | Path) -> Document:
    """A document from Markdown/plain text, a PDF, or the sample JSON layout."""
    path = Path(path)
    if path.suffix.lower() == ".pdf":
        pages = read_pdf(path)
        return Document("\n\n".join(pages), str(path), pages=pages)
    text = read_text(path)
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(
                f"not valid JSON ({exc.msg}, line {exc.lineno})", where=str(path)
            ) from None
        if not isinstance(data, dict) or not isinstance(data.get("passage"), str):
            raise DataError(
                'expected {"passage": "...", "questions1": [...], ...}', where=str(path)
            )
        sets = {}
        for key, value in data.items():
            if key == "passage":
                continue
            if not isinstance(value, list) or not all(isinstance(q, str) for q in value):
                raise DataError(
                    f"{key}: expected a list of strings, found {type_name(value)}", where=str(path)
                )
            sets[key] = value
        return Document(data["passage"], str(path), sets)
    if "\x00" in text:
        raise DataError("binary file, expected text, Markdown, PDF or JSON", where=str(path))
    return Document(text, str(path))


def read_questions(path: str | Path) -> list[str]:
    """A question set: a JSON list of strings (or ``{"questions": [...]}``), or a text
    file with one question per line."""
    path = Path(path)
    text = read_text(path)
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise DataError(
                f"not valid JSON ({exc.msg}, line {exc.lineno})", where=str(path)
            ) from None
        if isinstance(data, dict):
            data = data.get("questions")
        if not isinstance(data, list) or not all(isinstance(q, str) for q in data):
            raise DataError("expected a JSON list of question strings", where=str(path))
        return [q.strip() for q in data if q.strip()]
    return [line.strip() for line in text.splitlines() if line.strip()]
