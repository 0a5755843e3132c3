"""The critical-questions formats: the labelled dataset and a system's submission.

Dataset (the benchmark's official layout, JSON or JSONL)::

    {id: {"intervention_id", "intervention", "dataset", "schemes",
          "cqs": [{"id", "cq", "label"}]}}

Submission::

    {id: {"intervention_id", "cqs": [{"id", "cq"}] | "Missing CQs"}}

Validation is hand-written rather than delegated to a schema library because the
point is the message: every error names the file, the JSON path of the offending
value and what was expected, in one line.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maieutic.data._io import read_keyed_records, type_name
from maieutic.errors import DataError

LABELS: tuple[str, ...] = ("Useful", "Unhelpful", "Invalid")
"""The three human labels of a reference critical question."""

MISSING_CQS = "Missing CQs"
"""The submission value that stands for 'this system produced no questions'."""

# Longer than any plausible question; guards against pasting a document as a question.
MAX_QUESTION_CHARS = 5000


@dataclass(frozen=True)
class ReferenceQuestion:
    """A human-labelled reference question."""

    id: str
    cq: str
    label: str | None


@dataclass(frozen=True)
class Intervention:
    """An argumentative text with its reference questions."""

    intervention_id: str
    intervention: str
    dataset: str = ""
    schemes: tuple[str, ...] = ()
    cqs: tuple[ReferenceQuestion, ...] = ()


@dataclass
class CQDataset:
    """A labelled critical-questions dataset, keyed by intervention id."""

    interventions: dict[str, Intervention]
    source: str = "<memory>"
    warnings: list[str] = field(default_factory=list)
    """Problems tolerated because the published data has them (e.g. repeated ids)."""

    @property
    def n_references(self) -> int:
        """Total number of reference questions."""
        return sum(len(item.cqs) for item in self.interventions.values())

    def fingerprint(self) -> str:
        """A content hash: equal for the same data whether read from JSON or JSONL."""
        canonical = [
            [
                item.intervention_id,
                item.intervention,
                [[q.id, q.cq, q.label] for q in item.cqs],
            ]
            for _, item in sorted(self.interventions.items())
        ]
        blob = json.dumps(canonical, ensure_ascii=False, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class SubmittedQuestion:
    """One generated question of a submission."""

    id: str
    cq: str


@dataclass
class SubmissionEntry:
    """A system's questions for one intervention; ``cqs`` is None for "Missing CQs"."""

    intervention_id: str
    cqs: tuple[SubmittedQuestion, ...] | None
    raw: dict[str, Any] = field(default_factory=dict)

    @property
    def missing(self) -> bool:
        """Whether the system declared it had no questions for this intervention."""
        return self.cqs is None


@dataclass
class Submission:
    """A system's output for a set of interventions."""

    entries: dict[str, SubmissionEntry]
    source: str = "<memory>"
    name: str = "submission"


def _path(key: str, *parts: str | int) -> str:
    out = json.dumps(key, ensure_ascii=False)
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _require(record: dict[str, Any], name: str, kind: type, where: str, key: str) -> Any:
    if name not in record:
        raise DataError(f"{_path(key)}: missing field {name!r}", where=where)
    value = record[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise DataError(
            f"{_path(key, name)}: expected {type_name(kind())}, found {type_name(value)}",
            where=where,
        )
    return value


def _question_id(value: Any, where: str, at: str) -> str:
    # The published example numbers questions (0, 1, 2); the released data uses strings.
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise DataError(f"{at}: expected a string or integer id, found {type_name(value)}", where)
    text = str(value)
    if not text.strip():
        raise DataError(f"{at}: empty id", where=where)
    return text


def _question_text(value: Any, where: str, at: str) -> str:
    if not isinstance(value, str):
        raise DataError(f"{at}: expected a string, found {type_name(value)}", where=where)
    text = value.strip()
    if not text:
        raise DataError(f"{at}: empty question", where=where)
    if len(text) > MAX_QUESTION_CHARS:
        raise DataError(
            f"{at}: question is {len(text)} characters, over the {MAX_QUESTION_CHARS} limit",
            where=where,
        )
    return text


def parse_cq_dataset(
    records: dict[str, Any], where: str, *, require_labels: bool = True
) -> CQDataset:
    """Validate parsed records as a critical-questions dataset."""
    if not records:
        raise DataError("dataset holds no interventions", where=where)
    interventions: dict[str, Intervention] = {}
    warnings: list[str] = []
    for key, record in records.items():
        if not isinstance(record, dict):
            raise DataError(
                f"{_path(key)}: expected an object, found {type_name(record)}", where=where
            )
        iid = _require(record, "intervention_id", str, where, key)
        if iid != key:
            raise DataError(
                f"{_path(key, 'intervention_id')}: is {iid!r}, differs from its key", where
            )
        text = _require(record, "intervention", str, where, key)
        if not text.strip():
            raise DataError(f"{_path(key, 'intervention')}: empty text", where=where)
        dataset_name = record.get("dataset", "")
        if not isinstance(dataset_name, str):
            raise DataError(f"{_path(key, 'dataset')}: expected a string", where=where)
        schemes = record.get("schemes", [])
        if not isinstance(schemes, list) or not all(isinstance(s, str) for s in schemes):
            raise DataError(f"{_path(key, 'schemes')}: expected an array of strings", where)
        raw_cqs = record.get("cqs", [] if not require_labels else None)
        if raw_cqs is None:
            raise DataError(f"{_path(key)}: missing field 'cqs'", where=where)
        if not isinstance(raw_cqs, list):
            raise DataError(
                f"{_path(key, 'cqs')}: expected an array, found {type_name(raw_cqs)}", where
            )
        if require_labels and not raw_cqs:
            raise DataError(f"{_path(key, 'cqs')}: no reference questions", where=where)
        questions: list[ReferenceQuestion] = []
        seen: set[str] = set()
        for i, raw in enumerate(raw_cqs):
            at = _path(key, "cqs", i)
            if not isinstance(raw, dict):
                raise DataError(f"{at}: expected an object, found {type_name(raw)}", where)
            for name in ("id", "cq"):
                if name not in raw:
                    raise DataError(f"{at}: missing field {name!r}", where=where)
            qid = _question_id(raw["id"], where, f"{at}.id")
            if qid in seen:
                # The released validation data repeats a few reference ids, so this is
                # reported rather than refused; matching works on positions, not ids.
                warnings.append(f"{at}.id: duplicate reference id {qid!r}")
            seen.add(qid)
            cq = _question_text(raw["cq"], where, f"{at}.cq")
            label = raw.get("label")
            if require_labels and "label" not in raw:
                raise DataError(f"{at}: missing field 'label'", where=where)
            if label is not None and label not in LABELS:
                raise DataError(
                    f"{at}.label: unknown label {label!r} (expected one of {', '.join(LABELS)})",
                    where=where,
                )
            questions.append(ReferenceQuestion(qid, cq, label))
        interventions[key] = Intervention(
            intervention_id=iid,
            intervention=text,
            dataset=dataset_name,
            schemes=tuple(schemes),
            cqs=tuple(questions),
        )
    return CQDataset(interventions, source=where, warnings=warnings)


def load_cq_dataset(path: str | Path, *, require_labels: bool = True) -> CQDataset:
    """Load and validate a dataset file (JSON object or JSONL, one intervention a line)."""
    records = read_keyed_records(path, "intervention_id")
    return parse_cq_dataset(records, str(path), require_labels=require_labels)


def parse_submission(records: dict[str, Any], where: str, name: str = "submission") -> Submission:
    """Validate parsed records as a submission."""
    if not records:
        raise DataError("submission holds no interventions", where=where)
    entries: dict[str, SubmissionEntry] = {}
    for key, record in records.items():
        if not isinstance(record, dict):
            raise DataError(
                f"{_path(key)}: expected an object, found {type_name(record)}", where=where
            )
        iid = record.get("intervention_id", key)
        if iid != key:
            raise DataError(
                f"{_path(key, 'intervention_id')}: is {iid!r}, differs from its key", where
            )
        if "cqs" not in record:
            raise DataError(f"{_path(key)}: missing field 'cqs'", where=where)
        raw_cqs = record["cqs"]
        if raw_cqs == MISSING_CQS:
            entries[key] = SubmissionEntry(key, None, raw=record)
            continue
        if not isinstance(raw_cqs, list):
            raise DataError(
                f"{_path(key, 'cqs')}: expected an array or {MISSING_CQS!r}, "
                f"found {type_name(raw_cqs)}",
                where=where,
            )
        if not raw_cqs:
            raise DataError(
                f"{_path(key, 'cqs')}: empty array (write {MISSING_CQS!r} when a system "
                "has no questions)",
                where=where,
            )
        questions: list[SubmittedQuestion] = []
        seen: set[str] = set()
        for i, raw in enumerate(raw_cqs):
            at = _path(key, "cqs", i)
            if not isinstance(raw, dict):
                raise DataError(f"{at}: expected an object, found {type_name(raw)}", where)
            if "cq" not in raw:
                raise DataError(f"{at}: missing field 'cq'", where=where)
            qid = _question_id(raw.get("id", i), where, f"{at}.id")
            if qid in seen:
                raise DataError(f"{at}.id: duplicate question id {qid!r}", where=where)
            seen.add(qid)
            questions.append(SubmittedQuestion(qid, _question_text(raw["cq"], where, f"{at}.cq")))
        entries[key] = SubmissionEntry(key, tuple(questions), raw=record)
    return Submission(entries, source=where, name=name)


def load_submission(path: str | Path, name: str | None = None) -> Submission:
    """Load and validate a submission file (JSON object or JSONL)."""
    path = Path(path)
    records = read_keyed_records(path, "intervention_id")
    return parse_submission(records, str(path), name=name or path.stem)
