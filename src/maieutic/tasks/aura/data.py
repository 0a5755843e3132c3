"""Documents and question sets for AURA ("AURA-QG: Automated Unsupervised Replicable
Assessment for Question Generation"), and the document's Information Units.

A document (Markdown, plain text, PDF with a text layer — its printed lines reflowed
into paragraphs first, see ``maieutic.data.reflow`` — or the ``{"passage",
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
from typing import Any

from maieutic.data.files import read_text, type_name
from maieutic.data.pdf import read_pdf
from maieutic.data.surrogates import refuse_in_json
from maieutic.env_numbers import env_number
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
MAX_DOCUMENT_CHARS = int(env_number("MAIEUTIC_AURA_MAX_CHARS", 2_000_000))
"""About 600 pages of text: a whole manual fits; beyond it, encoding every unit on a
CPU takes many minutes (and a generation request that size fits no model's context),
so ``evaluate aura`` and ``generate aura`` both refuse the document with the limit
named."""


@dataclass(frozen=True)
class Block:
    """A paragraph (its text) or a list (its items, and a lead-in line if any)."""

    kind: str
    text: str
    items: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
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


@dataclass(kw_only=True)
class Document:
    """A cleaned document, and the question sets that came with it (sample JSON)."""

    text: str
    source: str
    question_sets: dict[str, list[str]] = field(default_factory=dict)
    pages: list[str] = field(default_factory=list)
    """A PDF's pages, each reflowed on its own (for generation page by page)."""


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
                necessary.append(
                    Unit(
                        chunk_id=len(necessary),
                        text=sentence,
                        type="necessary",
                        subtype="paragraph",
                        block=index,
                    )
                )
            for size in (2, 3):
                for start in range(len(kept) - size + 1):
                    part = tuple(kept[start : start + size])
                    pending.append((" ".join(part), index, part))
        else:
            chunk = len(necessary)
            necessary.append(
                Unit(
                    chunk_id=chunk,
                    text=_list_text(block),
                    type="necessary",
                    subtype="list",
                    block=index,
                    items=block.items,
                )
            )
            bullets += [(item, index, chunk) for item in block.items if item.strip()]
    units = list(necessary)
    for text, block, part in pending:
        units.append(
            Unit(
                chunk_id=len(units),
                text=text,
                type="optional",
                subtype="window",
                block=block,
                sentences=part,
            )
        )
    for text, block, parent in bullets:
        units.append(
            Unit(
                chunk_id=len(units),
                text=text,
                type="optional",
                subtype="bullet",
                block=block,
                parent_chunk_ids=(parent,),
            )
        )
    return units


def check_document_text(text: str, where: str | None = None) -> None:
    """Refuse a document with no text, or over ``MAX_DOCUMENT_CHARS`` characters."""
    if not text.strip():
        raise DataError("the document has no text", where=where)
    if len(text) > MAX_DOCUMENT_CHARS:
        raise DataError(
            f"the document has {len(text):,} characters, over the {MAX_DOCUMENT_CHARS:,} "
            "limit (split it, or raise MAIEUTIC_AURA_MAX_CHARS)",
            where=where,
        )


def mostly_non_latin(text: str) -> bool:
    """Whether most of the letters of ``text`` are outside the Latin alphabet (Hebrew,
    Arabic, Cyrillic, CJK…): text that AURA's English tools cannot split into units."""
    letters = [c for c in text if c.isalpha()]
    latin = sum(c.isascii() or "\u00c0" <= c <= "\u024f" for c in letters)
    return bool(letters) and latin < 0.5 * len(letters)


def read_document(path: str | Path) -> Document:
    """A document from Markdown/plain text, a PDF, or the sample JSON layout (its text
    is checked by what uses it: ``check_document_text``)."""
    path = Path(path)
    if path.suffix.lower() == ".pdf":
        pdf = read_pdf(path, MAX_DOCUMENT_CHARS, "MAIEUTIC_AURA_MAX_CHARS")
        return Document(text=pdf.text, source=str(path), pages=pdf.pages)
    if path.suffix.lower() == ".json":
        return _json_document(read_text(path), where=str(path))
    text = read_text(path)
    if "\x00" in text:
        raise DataError("binary file, expected text, Markdown, PDF or JSON", where=str(path))
    return Document(text=text, source=str(path))


def _json_document(text: str, *, where: str) -> Document:
    """The sample layout: ``{"passage": "...", "questions1": [...], ...}``."""
    data = _json(text, where=where)
    if not isinstance(data, dict) or not isinstance(data.get("passage"), str):
        raise DataError('expected {"passage": "...", "questions1": [...], ...}', where=where)
    sets = {}
    for key, value in data.items():
        if key == "passage":
            continue
        if not isinstance(value, list) or not all(isinstance(q, str) for q in value):
            raise DataError(
                f"{key}: expected a list of strings, found {type_name(value)}", where=where
            )
        sets[key] = value
    return Document(text=data["passage"], source=where, question_sets=sets)


def _json(text: str, *, where: str) -> Any:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON ({exc.msg}, line {exc.lineno})", where=where) from None
    refuse_in_json(text, data, where)
    return data


QUESTIONS_SHAPE = 'a JSON list of question strings, or {"questions": [...]}'


def read_questions(path: str | Path) -> list[str]:
    """A question set: a JSON list of strings (or ``{"questions": [...]}``) in a
    ``.json`` file, or a text file with one question per line.

    A set with no question is refused: every metric would be 0 but non-redundancy,
    a score that says nothing about a system. So is a text file that holds JSON (read
    line by line, a whole list would become one "question")."""
    path = Path(path)
    text = read_text(path)
    if path.suffix.lower() == ".json":
        data = _json(text, where=str(path))
        if isinstance(data, dict):
            data = data.get("questions")
        if not isinstance(data, list) or not all(isinstance(q, str) for q in data):
            raise DataError(f"expected {QUESTIONS_SHAPE}", where=str(path))
        return _non_empty([q.strip() for q in data if q.strip()], str(path))
    if _is_json_container(text):
        raise DataError(
            "this holds JSON, but only a .json file is read as JSON (any other is one "
            f"question per line): name it .json; a question set is {QUESTIONS_SHAPE}",
            where=str(path),
        )
    return _non_empty([line.strip() for line in text.splitlines() if line.strip()], str(path))


def _is_json_container(text: str) -> bool:
    """Whether ``text`` is one JSON list or object, or JSON Lines of them."""
    stripped = text.strip()
    if not stripped.startswith(("[", "{")):
        return False
    lines = [line for line in stripped.splitlines() if line.strip()]
    return _json_container(stripped) or all(_json_container(line) for line in lines)


def _json_container(text: str) -> bool:
    try:
        return isinstance(json.loads(text), list | dict)
    except json.JSONDecodeError:
        return False


def _non_empty(questions: list[str], where: str) -> list[str]:
    if not questions:
        raise DataError("no questions in the set", where=where)
    return questions
