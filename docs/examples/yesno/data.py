"""The task's files: the questions with their answers (the reference), and one
system's answers (a submission); both are JSON lists of objects with an "id"."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maieutic.data.files import read_text
from maieutic.data.flags import Flag
from maieutic.errors import DataError

ANSWERS = ("yes", "no")


@dataclass
class Questions:
    """The reference: each question and its answer, by id."""

    questions: dict[str, str]
    answers: dict[str, str]
    source: str = "<memory>"
    flags: list[Flag] = field(default_factory=list)

    def fingerprint(self) -> str:
        """A content hash, for signatures."""
        blob = json.dumps([self.questions, self.answers], sort_keys=True)
        return "sha256:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass
class Answer:
    """One answer of a system (what a generator writes for one question)."""

    id: str
    answer: str
    failed: bool = False  # a model-free generator never fails

    def to_json(self) -> dict[str, str]:
        """The answer as a submission file holds it."""
        return {"id": self.id, "answer": self.answer}


@dataclass
class Answers:
    """One submission: a system's answers, by question id."""

    answers: dict[str, str]
    source: str
    name: str
    flags: list[Flag] = field(default_factory=list)


def _records(path: str | Path, fields: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """The file's objects by id; what cannot be read is a DataError that says where."""
    try:
        data = json.loads(read_text(Path(path)))
    except json.JSONDecodeError as exc:
        raise DataError(f"not valid JSON ({exc.msg})", where=str(path)) from None
    if not isinstance(data, list):
        raise DataError("expected a JSON list of objects", where=str(path))
    records: dict[str, dict[str, Any]] = {}
    for n, record in enumerate(data):
        missing = [f for f in ("id", *fields) if not isinstance(record, dict) or f not in record]
        if missing:
            raise DataError(f"[{n}]: missing field {missing[0]!r}", where=str(path))
        if str(record["id"]) in records:
            raise DataError(f"[{n}]: repeated id {record['id']!r}", where=str(path))
        records[str(record["id"])] = record
    return records


def load_questions(path: str | Path) -> Questions:
    """The reference file: [{"id", "question", "answer"}, ...]."""
    records = _records(path, ("question", "answer"))
    for key, record in records.items():
        if record["answer"] not in ANSWERS:
            raise DataError(f"{key}: the answer must be yes or no", where=str(path))
    return Questions(
        {k: str(r["question"]) for k, r in records.items()},
        {k: r["answer"] for k, r in records.items()},
        str(path),
    )


def load_answers(path: str | Path) -> Answers:
    """A submission file: [{"id", "answer"}, ...]. An answer other than yes or no is
    scored as wrong and flagged (--strict refuses it)."""
    answers, flags = {}, []
    for key, record in _records(path, ("answer",)).items():
        answer = str(record["answer"]).strip().lower()
        if answer not in ANSWERS:
            message = f"{answer!r} is not yes or no"
            flags.append(
                Flag(
                    file=str(path), at=f"{key}.answer", code="not-yes-no", message=message, item=key
                )
            )
        answers[key] = answer
    return Answers(answers, str(path), Path(path).stem, flags)
