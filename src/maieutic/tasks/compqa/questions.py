"""Comparative questions to answer ("What is better: A or B?"), with an optional aspect
and an optional list of arguments ("Argument-Based Comparative Question Answering
Evaluation Benchmark", section 2.3).

Accepted files:

- JSON (a list) or JSON Lines of objects with ``object1``, ``object2``, optionally
  ``aspect`` and ``arguments`` (a list of strings, or one string of numbered lines); an
  object may give ``question`` instead of the objects. The released answer files have
  this shape, so they can be answered again (their ``comparison`` is ignored).
- Plain text, one question per line: ``What is better for X: A or B?`` (the aspect is
  optional; ``Which is better, A or B?`` also works).

Tolerated and flagged: a repeated question (answered once per occurrence, as written).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maieutic.data.files import is_jsonl, read_text, type_name
from maieutic.data.flags import Flag
from maieutic.errors import DataError
from maieutic.tasks.compqa.data import parse_json

_QUESTION = re.compile(
    r"^\s*(?:what|which)\s+(?:is|would\s+be)\s+(?:better|best)"
    r"(?:\s+(?P<aspect>[^:,?]+?))?\s*[:,]\s*(?P<a>.+?)\s+or\s+(?P<b>.+?)\s*\??\s*$",
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"^\s*(?:\[?\d+[.)\]]|[-*•])\s*")


@dataclass(kw_only=True)
class ComparativeQuestion:
    """One question: two objects, an optional aspect and optional arguments."""

    object1: str
    object2: str
    aspect: str = ""
    arguments: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The question as a user would ask it."""
        aspect = f" {self.aspect}" if self.aspect else ""
        return f"What is better{aspect}: {self.object1} or {self.object2}?"

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the released answer layout, without the comparison)."""
        return {"object1": self.object1, "object2": self.object2, "aspect": self.aspect}


@dataclass
class QuestionSet:
    """The questions of one file, with what was tolerated flagged."""

    questions: list[ComparativeQuestion]
    source: str
    flags: list[Flag] = field(default_factory=list)


def parse_question(text: str) -> ComparativeQuestion | None:
    """The objects and aspect of "What is better [ASPECT]: A or B?", or None."""
    match = _QUESTION.match(text)
    if not match:
        return None
    aspect = (match.group("aspect") or "").strip()
    return ComparativeQuestion(
        object1=match.group("a").strip(), object2=match.group("b").strip(), aspect=aspect
    )


def _arguments(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        lines = [_NUMBERED.sub("", line).strip() for line in value.splitlines()]
        return [line for line in lines if line]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v.strip() for v in value if v.strip()]
    raise DataError(
        f"{where}.arguments: expected a list of strings or one string, found {type_name(value)}"
    )


def _from_record(record: Any, where: str) -> ComparativeQuestion:
    if not isinstance(record, dict):
        raise DataError(f"{where}: expected an object, found {type_name(record)}")
    if isinstance(record.get("question"), str) and "object1" not in record:
        question = parse_question(record["question"])
        if question is None:
            raise DataError(
                f"{where}.question: {record['question'][:60]!r} is not of the form "
                "'What is better [ASPECT]: A or B?'"
            )
    else:
        for key in ("object1", "object2"):
            value = record.get(key)
            if not isinstance(value, str) or not value.strip():
                raise DataError(f"{where}.{key}: expected a non-empty string")
        aspect = record.get("aspect") or ""
        if not isinstance(aspect, str):
            raise DataError(f"{where}.aspect: expected a string, found {type_name(aspect)}")
        question = ComparativeQuestion(
            object1=record["object1"].strip(),
            object2=record["object2"].strip(),
            aspect=aspect.strip(),
        )
    question.arguments = _arguments(record.get("arguments"), where)
    return question


def _records(path: Path, text: str) -> list[tuple[str, Any]]:
    if is_jsonl(path):
        return [
            (f"line {lineno}", parse_json(line, f"line {lineno}"))
            for lineno, line in enumerate(text.splitlines(), start=1)
            if line.strip()
        ]
    data = parse_json(text, None)  # the caller names the file
    if not isinstance(data, list):
        raise DataError(f"expected a JSON list of questions, found {type_name(data)}")
    return [(f"[{i}]", record) for i, record in enumerate(data)]


def read_questions(path: str | Path) -> QuestionSet:
    """The questions of ``path`` (see the module docstring for the accepted files)."""
    path = Path(path)
    text = read_text(path)
    if not text.strip():
        raise DataError("file is empty", where=str(path))
    questions: list[tuple[str, ComparativeQuestion]] = []
    try:
        if path.suffix.lower() in {".json", ".jsonl", ".ndjson"}:
            questions = [(at, _from_record(r, at)) for at, r in _records(path, text)]
        else:
            for lineno, line in enumerate(text.splitlines(), start=1):
                if not line.strip():
                    continue
                question = parse_question(line)
                if question is None:
                    raise DataError(
                        f"line {lineno}: {line.strip()[:60]!r} is not of the form "
                        "'What is better [ASPECT]: A or B?'"
                    )
                questions.append((f"line {lineno}", question))
    except DataError as exc:
        raise DataError(str(exc), where=str(path)) from None
    if not questions:
        raise DataError("no questions", where=str(path))
    flags, seen = [], set()
    for at, question in questions:
        key = (question.object1.lower(), question.object2.lower(), question.aspect.lower())
        if key in seen:
            flags.append(
                Flag(
                    file=str(path),
                    at=at,
                    code="repeated-question",
                    message=f"{question.text!r} is asked again",
                )
            )
        seen.add(key)
    return QuestionSet([q for _, q in questions], str(path), flags)
