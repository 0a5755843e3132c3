"""Reading the text to ask about: an argument on the command line, a text, Markdown or
PDF file, or standard input — and refusing what cannot be a text, with one line."""

from __future__ import annotations

import sys
from pathlib import Path

from maieutic.data.files import decode_text, read_bytes
from maieutic.data.surrogates import refuse_lone_surrogates
from maieutic.env_numbers import env_number
from maieutic.errors import DataError
from maieutic.path_text import cannot_be_a_path, path_exists

MAX_ASK_CHARS = int(env_number("MAIEUTIC_ASK_MAX_CHARS", 200_000))
"""About 60 pages: ``ask`` is interactive, and beyond this the document's assessment
takes minutes and gigabytes; longer texts are refused with the limit named (split them,
or use ``maieutic evaluate aura`` on the whole document)."""
FILE_SUFFIXES = {".txt", ".md", ".markdown", ".text", ".rst", ".pdf"}


def _decode(data: bytes, where: str) -> str:
    try:
        return decode_text(data, where)
    except DataError as exc:
        if "NUL" in exc.message:  # say what ask reads instead
            raise DataError("binary data, expected text, Markdown or PDF", where=where) from None
        raise


def _read_file(path: Path) -> str:
    if path.is_dir():
        raise DataError("is a directory, expected a text, Markdown or PDF file", where=str(path))
    if path.suffix.lower() == ".pdf":
        from maieutic.tasks.aura.api import read_pdf

        # its printed lines reflowed into paragraphs; extraction stops once over the limit
        return read_pdf(path, MAX_ASK_CHARS, "MAIEUTIC_ASK_MAX_CHARS").text
    try:
        # refused once more than the limit could need is read: never read whole
        data = read_bytes(path, limit=4 * MAX_ASK_CHARS)
    except DataError as exc:
        if "limit" not in exc.message:
            raise
        raise DataError(
            f"the file is over the {MAX_ASK_CHARS:,}-character limit "
            "(split it, or raise MAIEUTIC_ASK_MAX_CHARS)",
            where=str(path),
        ) from None
    return _decode(data, str(path))


def read_input(source: str) -> tuple[str, str]:
    """The text and where it came from (``-``: standard input; an existing file's path:
    the file; anything else: the text itself)."""
    if source == "-":
        # read at most what could pass the limit: an endless pipe is refused, not slurped
        data = sys.stdin.buffer.read(4 * MAX_ASK_CHARS + 1)
        if len(data) > 4 * MAX_ASK_CHARS:
            raise DataError(
                f"standard input is over the {MAX_ASK_CHARS:,}-character limit "
                "(split it, or raise MAIEUTIC_ASK_MAX_CHARS)",
                where="<stdin>",
            )
        text, where = _decode(data, "<stdin>"), "<stdin>"
    elif _looks_like_a_path(source):
        if not path_exists(source, home=True):
            raise DataError("file not found (quote a text that is not a file name)", where=source)
        path = Path(source).expanduser()
        text, where = _read_file(path), str(path)
    else:
        text, where = source, "<argument>"
    return check_text(text, where=where), where


def _looks_like_a_path(source: str) -> bool:
    """An existing file or folder, or one word that names a file (a known suffix or a
    path separator): a missing ``essay.md`` is an error, not a text to ask about. Text
    that cannot be a path (a paragraph longer than a file name may be, a line break) is
    text, whatever it holds."""
    if "\n" in source or cannot_be_a_path(source):
        return False
    if path_exists(source, home=True):
        return True
    if any(c.isspace() for c in source.strip()):
        return False
    return Path(source).suffix.lower() in FILE_SUFFIXES or "/" in source or "\\" in source


def check_text(text: str, *, where: str) -> str:
    """The text, stripped; a ``DataError`` when it is empty, over the limit, or holds
    a byte that is no UTF-8 (an argument in another encoding reaches Python as a lone
    surrogate, which nothing downstream can encode)."""
    text = text.strip()
    refuse_lone_surrogates(text, where=where)
    if not text:
        raise DataError("the text is empty: nothing to ask about", where=where)
    if len(text) > MAX_ASK_CHARS:
        raise DataError(
            f"the text has {len(text):,} characters, over the {MAX_ASK_CHARS:,} limit "
            "(split it, or raise MAIEUTIC_ASK_MAX_CHARS)",
            where=where,
        )
    return text
