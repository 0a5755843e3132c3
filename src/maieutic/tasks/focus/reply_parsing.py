"""Reading weakness types and spans out of what models actually write.

Accepted, in this order: the asked-for form (``Classification: [...]`` then
``Span: [...]``, the last one when a chain of thought comes first), JSON (a list of
``{"type", "span"}`` objects or an object of parallel lists, fenced or not), and
numbered or bulleted lines (``1. Lacks Evidence — span: "…"``). Lists may be JSON or
Python-style with single quotes — a span such as ``'don't, ever'`` holds an apostrophe
and a comma, so items are split only at a closing quote, a comma and an opening quote.
Type names in any spelling are resolved; what cannot be resolved, and types beyond
two, are reported as problems, never dropped in silence.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field

from maieutic.generate.parsing import strip_reasoning
from maieutic.tasks.focus.typology import NONE_ID, typology

MAX_TYPES = 2

_FIELD = re.compile(r"(?im)^\W*(classification|types?|spans?)\s*\**\s*:\s*\**\s*(.*)$")
_FENCE = re.compile(r"```(?:json|python)?\s*(.*?)```", re.DOTALL)
_LINE = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+(.+)$")
_QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|'(.+)'")


NO_TYPES = "no types found in the reply"
"""The problem reported for a reply that names no weakness type."""


@dataclass
class ParsedAnswer:
    """Types (ids) with their spans as written, and what was odd about the reply."""

    labels: list[tuple[str, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    parsed: bool = True
    """False when no answer could be found in the reply at all."""


def split_list(text: str) -> list[str]:
    """The items of a list written as JSON, as a Python literal, or loosely; prose
    after the closing bracket (``[...] because …``) is not part of the list."""
    text = text.strip().rstrip(".")
    if text.startswith("[") and "]" in text:
        text = text[: text.rindex("]") + 1]
    for loader in (json.loads, ast.literal_eval):
        try:
            value = loader(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
        if isinstance(value, list | tuple):
            return [str(v).strip() for v in value]
        if isinstance(value, str):
            return [value.strip()]
    inner = text[1:-1].strip() if text.startswith("[") and text.endswith("]") else text
    if inner[:1] in "\"'“" and len(inner) > 1:
        quote = inner[0]
        closing = "”" if quote == "“" else quote
        body = inner[1:-1] if inner.endswith(closing) else inner[1:]
        return [part.strip() for part in re.split(rf"[{closing}]\s*,\s*[{quote}]", body)]
    return [part.strip() for part in inner.split(",") if part.strip()] if inner else []


def _collect(types: list[str], *, spans: list[str], answer: ParsedAnswer) -> ParsedAnswer:
    for position, name in enumerate(types):
        type_id = typology().resolve(name)
        if type_id is None:
            answer.problems.append(f"unknown type {name!r}")
            continue
        span = spans[position] if position < len(spans) else ""
        if type_id != NONE_ID and not span.strip():
            answer.problems.append(f"no span for {typology().name(type_id)!r}")
        answer.labels.append((type_id, "" if type_id == NONE_ID else span))
    if len({t for t, _ in answer.labels}) < len(answer.labels):
        answer.problems.append("a type given twice (the first is kept)")
        seen: set[str] = set()
        answer.labels = [x for x in answer.labels if not (x[0] in seen or seen.add(x[0]))]
    if len(answer.labels) > MAX_TYPES:
        answer.problems.append(f"{len(answer.labels)} types; the first {MAX_TYPES} are kept")
        answer.labels = answer.labels[:MAX_TYPES]
    if any(t == NONE_ID for t, _ in answer.labels) and len(answer.labels) > 1:
        answer.problems.append("None of the Above beside other types (dropped)")
        answer.labels = [x for x in answer.labels if x[0] != NONE_ID]
    return answer


def _from_fields(text: str) -> ParsedAnswer | None:
    found: dict[str, str] = {}
    for match in _FIELD.finditer(text):
        key = "types" if match.group(1).lower().startswith(("class", "type")) else "spans"
        if key == "types":
            found.clear()  # the last answer wins (a chain of thought may quote the form)
        found[key] = match.group(2)
    if "types" not in found:
        return None
    return _collect(
        split_list(found["types"]), spans=split_list(found.get("spans", "")), answer=ParsedAnswer()
    )


def _literal(text: str) -> object | None:
    """A JSON value at the start of ``text``, or the whole of it as a Python literal
    (single-quoted keys and strings, as some models write inside code fences)."""
    try:
        return json.JSONDecoder().raw_decode(text)[0]
    except ValueError:
        pass
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None


def _from_json(text: str) -> ParsedAnswer | None:
    candidates = [m.group(1) for m in _FENCE.finditer(text)]
    start = min((i for i in (text.find("["), text.find("{")) if i >= 0), default=-1)
    if start >= 0:
        candidates.append(text[start:])
    for candidate in candidates:
        value = _literal(candidate.strip())
        if value is None:
            continue
        if isinstance(value, dict):
            keys = {k.lower(): v for k, v in value.items()}
            types = keys.get("classification") or keys.get("types") or keys.get("type")
            spans = keys.get("span") or keys.get("spans") or []
            if types is not None:
                types = types if isinstance(types, list) else [types]
                spans = spans if isinstance(spans, list) else [spans]
                return _collect(
                    [str(t) for t in types], spans=[str(s) for s in spans], answer=ParsedAnswer()
                )
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            types = [str(v.get("type") or v.get("classification") or "") for v in value]
            spans = [str(v.get("span") or "") for v in value]
            return _collect(types, spans=spans, answer=ParsedAnswer())
    return None


def _from_lines(text: str) -> ParsedAnswer | None:
    types, spans = [], []
    for line in text.splitlines():
        match = _LINE.match(line)
        if not match:
            continue
        body = match.group(1)
        head = re.split(r"\s[-–—]\s|:|\(", body, maxsplit=1)[0]
        if typology().resolve(head) is None:
            continue
        quoted = _QUOTED.search(body[len(head) :])
        types.append(head)
        spans.append(next(g for g in quoted.groups() if g) if quoted else "")
    return _collect(types, spans=spans, answer=ParsedAnswer()) if types else None


def parse_reply(text: str) -> ParsedAnswer:
    """Types and spans from a model's reply (``parsed`` False when there is none)."""
    text = strip_reasoning(text)
    for reader in (_from_fields, _from_json, _from_lines):
        answer = reader(text)
        if answer is not None:
            return answer
    return ParsedAnswer(parsed=False, problems=[NO_TYPES])
