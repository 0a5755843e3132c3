"""The critical-questions formats: the labelled dataset and a system's submission.

Dataset (the benchmark's official layout, JSON or JSONL)::

    {id: {"intervention_id", "intervention", "dataset", "schemes",
          "cqs": [{"id", "cq", "label"}]}}

Submission::

    {id: {"intervention_id", "cqs": [{"id", "cq"}] | "Missing CQs"}}

Validation is hand-written rather than delegated to a schema library because the
point is the message: every error names the file, the JSON path of the offending
value and what was expected, in one line.

Submissions are read as the benchmark's own evaluation script reads them: it never
looks at question ids, encodes whatever text it is given (an empty string included)
and scores an empty question list as 0. Such files are accepted and every oddity is
recorded as a ``Flag``; only structural breakage (not JSON, wrong types, missing
fields) is an error.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maieutic.data.files import read_keyed_records, type_name
from maieutic.data.flags import Flag
from maieutic.errors import DataError
from maieutic.tasks.cqs.labels import LABELS as LABELS  # where the task's modules find it
from maieutic.tasks.cqs.labels import read_label, reason_of
from maieutic.wording import plural

MISSING_CQS = "Missing CQs"
"""The submission value that stands for 'this system produced no questions'."""

EXPECTED_QUESTIONS = 3
"""The task asks for exactly three critical questions per intervention."""

# Longer than any plausible question: a reference this long is an error, a submitted
# question this long is flagged (and scored as the model truncates it).
MAX_QUESTION_CHARS = 5000


@dataclass(frozen=True, kw_only=True)
class ReferenceQuestion:
    """A human-labelled reference question."""

    id: str
    cq: str
    label: str | None
    reason: str | None = None
    """The released ``reason`` field, when the file has one (kept, never scored)."""


@dataclass(frozen=True, kw_only=True)
class Intervention:
    """An argumentative text with its reference questions."""

    intervention_id: str
    intervention: str
    dataset: str = ""
    schemes: tuple[str, ...] = ()
    cqs: tuple[ReferenceQuestion, ...] = ()


@dataclass(kw_only=True)
class CQDataset:
    """A labelled critical-questions dataset, keyed by intervention id."""

    interventions: dict[str, Intervention]
    source: str = "<memory>"
    warnings: list[str] = field(default_factory=list)
    """Problems tolerated because the published data has them (e.g. repeated ids)."""
    flags: list[Flag] = field(default_factory=list)
    """Content read as the benchmark reads it but worth a flag (``--strict`` refuses
    it): a label that is one of the paper's reasons (``KNOWN_REASONS``)."""

    @property
    def n_references(self) -> int:
        """Total number of reference questions."""
        return sum(len(item.cqs) for item in self.interventions.values())

    def fingerprint(self) -> str:
        """A content hash: equal for the same data whether read from JSON or JSONL.

        Everything a result can depend on is in it: texts, references and labels, and
        the scheme labels (the template generator and scheme prompts read them).
        """
        canonical = [fingerprint_element(item) for _, item in sorted(self.interventions.items())]
        blob = json.dumps(canonical, ensure_ascii=False, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


def fingerprint_element(item: Intervention) -> list[Any]:
    """One intervention's part of the dataset fingerprint (plain JSON)."""
    references = [[q.id, q.cq, q.label] for q in item.cqs]
    return [item.intervention_id, item.intervention, item.dataset, list(item.schemes), references]


@dataclass(frozen=True)
class SubmittedQuestion:
    """One generated question of a submission, its text exactly as submitted."""

    id: str | None
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


@dataclass(kw_only=True)
class Submission:
    """A system's output for a set of interventions, with the oddities it contains."""

    entries: dict[str, SubmissionEntry]
    source: str = "<memory>"
    name: str = "submission"
    flags: list[Flag] = field(default_factory=list)
    """Problems the benchmark script scores silently (see ``maieutic.data.flags``)."""


def _path(key: str, *parts: str | int) -> str:
    out = json.dumps(key, ensure_ascii=False)
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _require(record: dict[str, Any], name: str, kind: type, *, where: str, key: str) -> Any:
    if name not in record:
        raise DataError(f"{_path(key)}: missing field {name!r}", where=where)
    value = record[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise DataError(
            f"{_path(key, name)}: expected {type_name(kind())}, found {type_name(value)}",
            where=where,
        )
    return value


def _reference_id(value: Any, where: str, *, at: str) -> str:
    # The published example numbers questions (0, 1, 2); the released data uses strings.
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise DataError(f"{at}: expected a string or integer id, found {type_name(value)}", where)
    text = str(value)
    if not text.strip():
        raise DataError(f"{at}: empty id", where=where)
    return text


def _reference_text(value: Any, where: str, *, at: str) -> str:
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


def _references(
    key: str, raw_cqs: list[Any], where: str, *, require_labels: bool, warnings, flags: list[Flag]
):
    questions: list[ReferenceQuestion] = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_cqs):
        at = _path(key, "cqs", i)
        if not isinstance(raw, dict):
            raise DataError(f"{at}: expected an object, found {type_name(raw)}", where)
        for name in ("id", "cq"):
            if name not in raw:
                raise DataError(f"{at}: missing field {name!r}", where=where)
        qid = _reference_id(raw["id"], where, at=f"{at}.id")
        if qid in seen and not isinstance(raw["id"], int):
            # The released validation data repeats a few reference ids, so this is
            # reported rather than refused; matching works on positions, not ids. An
            # integer id is a position within a group (the released extended test file
            # numbers each system's questions 0, 1, 2 again): repeats are its nature.
            warnings.append(f"{at}.id: duplicate reference id {qid!r}")
        seen.add(qid)
        cq = _reference_text(raw["cq"], where, at=f"{at}.cq")
        label = raw.get("label")
        if require_labels and "label" not in raw:
            raise DataError(f"{at}: missing field 'label'", where=where)
        if label is not None or (require_labels and "label" in raw):
            label = read_label(label, f"{at}.label", where=where, flags=flags, item=key)
        questions.append(
            ReferenceQuestion(id=qid, cq=cq, label=label, reason=reason_of(raw, where, at=at))
        )
    return tuple(questions)


def parse_cq_dataset(
    records: dict[str, Any], where: str, *, require_labels: bool = True
) -> CQDataset:
    """Validate parsed records as a critical-questions dataset."""
    if not records:
        raise DataError("dataset holds no interventions", where=where)
    warnings: list[str] = []
    flags: list[Flag] = []
    interventions = {
        key: parse_intervention(
            key, record, where, require_labels=require_labels, warnings=warnings, flags=flags
        )
        for key, record in records.items()
    }
    return CQDataset(interventions=interventions, source=where, warnings=warnings, flags=flags)


def parse_intervention(
    key: str,
    record: Any,
    where: str,
    *,
    require_labels: bool,
    warnings: list[str],
    flags: list[Flag] | None = None,
) -> Intervention:
    """One record of a dataset, validated (``warnings`` gets what is tolerated)."""
    if not isinstance(record, dict):
        raise DataError(f"{_path(key)}: expected an object, found {type_name(record)}", where=where)
    iid = _require(record, "intervention_id", str, where=where, key=key)
    if iid != key:
        raise DataError(f"{_path(key, 'intervention_id')}: is {iid!r}, differs from its key", where)
    text = _require(record, "intervention", str, where=where, key=key)
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
    return Intervention(
        intervention_id=iid,
        intervention=text,
        dataset=dataset_name,
        schemes=tuple(schemes),
        cqs=_references(
            key,
            raw_cqs,
            where,
            require_labels=require_labels,
            warnings=warnings,
            flags=[] if flags is None else flags,
        ),
    )


def load_cq_dataset(path: str | Path, *, require_labels: bool = True) -> CQDataset:
    """Load and validate a dataset file (JSON object or JSONL, one intervention a line)."""
    expected = "a labelled dataset" if require_labels else None
    records = read_keyed_records(path, "intervention_id", expected=expected)
    return parse_cq_dataset(records, str(path), require_labels=require_labels)


def _normalise(text: str) -> str:
    return " ".join(text.lower().split())


class _EntryReader:
    """Reads one submission entry, collecting flags instead of refusing what the
    benchmark script scores."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.flags: list[Flag] = []
        self.labelled = False

    def flag(self, at: str, *, code: str, message: str, item: str | None = None) -> None:
        self.flags.append(Flag(file=self.where, at=at, code=code, message=message, item=item))

    def question(self, key: str, i: int, raw: Any, *, seen_ids: set[str]) -> SubmittedQuestion:
        at = _path(key, "cqs", i)
        if not isinstance(raw, dict):
            raise DataError(f"{at}: expected an object, found {type_name(raw)}", self.where)
        if "cq" not in raw:
            raise DataError(f"{at}: missing field 'cq'", where=self.where)
        text = raw["cq"]
        if not isinstance(text, str):
            raise DataError(f"{at}.cq: expected a string, found {type_name(text)}", self.where)
        self.labelled = self.labelled or "label" in raw
        qid = self._id(key, raw, at, seen_ids=seen_ids)
        if not text.strip():
            self.flag(f"{at}.cq", code="empty-question", message="empty question", item=key)
        elif text != text.strip():
            self.flag(
                f"{at}.cq", code="whitespace", message="leading or trailing whitespace", item=key
            )
        if len(text) > MAX_QUESTION_CHARS:
            self.flag(
                f"{at}.cq",
                code="long-question",
                message=f"question is {len(text)} characters long",
                item=key,
            )
        return SubmittedQuestion(qid, text)

    def _id(self, key: str, raw: dict[str, Any], at: str, *, seen_ids: set[str]) -> str | None:
        # The benchmark script never reads question ids, so no id is ever an error.
        if "id" not in raw:
            self.flag(at, code="missing-id", message="question without an id", item=key)
            return None
        value = raw["id"]
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            message = f"id is {type_name(value)}, not a string or integer"
            self.flag(f"{at}.id", code="bad-id", message=message, item=key)
            return None
        qid = str(value)
        if qid in seen_ids:
            self.flag(
                f"{at}.id", code="repeated-id", message=f"repeated question id {qid!r}", item=key
            )
        seen_ids.add(qid)
        return qid

    def entry(self, key: str, record: Any) -> SubmissionEntry:
        if not isinstance(record, dict):
            message = f"{_path(key)}: expected an object, found {type_name(record)}"
            raise DataError(message, where=self.where)
        iid = record.get("intervention_id", key)
        if iid != key:
            self.flag(
                _path(key, "intervention_id"),
                code="id-mismatch",
                message=f"is {iid!r}, differs from its key "
                "(the key is used, as by the benchmark script)",
                item=key,
            )
        if "cqs" not in record:
            raise DataError(f"{_path(key)}: missing field 'cqs'", where=self.where)
        raw_cqs = record["cqs"]
        if raw_cqs == MISSING_CQS:
            return SubmissionEntry(key, None, raw=record)
        if not isinstance(raw_cqs, list):
            raise DataError(
                f"{_path(key, 'cqs')}: expected an array or {MISSING_CQS!r}, "
                f"found {type_name(raw_cqs)}",
                where=self.where,
            )
        seen_ids: set[str] = set()
        questions = tuple(
            self.question(key, i, raw, seen_ids=seen_ids) for i, raw in enumerate(raw_cqs)
        )
        self._count_and_repeats(key, [q.cq for q in questions])
        return SubmissionEntry(key, questions, raw=record)

    def _count_and_repeats(self, key: str, texts: list[str]) -> None:
        at = _path(key, "cqs")
        if not texts:
            message = "no questions (scored 0, as by the benchmark script)"
            self.flag(at, code="no-questions", message=message, item=key)
        elif len(texts) != EXPECTED_QUESTIONS:
            message = f"{plural(len(texts), 'question')} (expected {EXPECTED_QUESTIONS})"
            self.flag(at, code="question-count", message=message, item=key)
        non_empty = [_normalise(t) for t in texts if t.strip()]
        repeats = len(non_empty) - len(set(non_empty))
        if repeats:
            self.flag(
                at,
                code="duplicate-questions",
                message=plural(repeats, "duplicate question"),
                item=key,
            )


def parse_submission(
    records: dict[str, Any], where: str, *, name: str = "submission"
) -> Submission:
    """Validate parsed records as a submission; tolerated oddities become flags."""
    if not records:
        raise DataError("submission holds no interventions", where=where)
    reader = _EntryReader(where)
    entries = {key: reader.entry(key, record) for key, record in records.items()}
    if reader.labelled:
        reader.flag(
            "(file)",
            code="labelled-submission",
            message="questions carry labels (an evaluated submission?); they are ignored",
        )
    return Submission(entries=entries, source=where, name=name, flags=reader.flags)


def load_submission(path: str | Path, name: str | None = None) -> Submission:
    """Load and validate a submission file (JSON object or JSONL).

    Repeated keys are read as ``json.load`` reads them (the last wins) and flagged.
    """
    path = Path(path)
    duplicates: list[str] = []
    records = read_keyed_records(path, "intervention_id", "a submission", duplicates=duplicates)
    submission = parse_submission(records, str(path), name=name or path.stem)
    for key in dict.fromkeys(duplicates):
        submission.flags.append(
            Flag(
                file=str(path),
                at=json.dumps(key),
                code="duplicate-key",
                message="repeated key (the last is used)",
            )
        )
    return submission
