"""Candidate questions per text, read from a file in the benchmark's layout.

A candidates file is what a system wrote before choosing: any number of questions per
intervention, in the system's own order. Two layouts are read, as the benchmark's
files are:

- the dataset layout (``{id: {"intervention_id", "intervention", "cqs": [{"id", "cq",
  "label"?}]}}``): the texts come with it, and a question's people's label is kept
  where it has one (the released ``extended_test.json`` is such a file);
- the submission layout (``{id: {"intervention_id", "cqs": [{"id", "cq"}]}}``): the
  texts come from a dataset file (``data``), matched by intervention id.

The same candidates feed ``maieutic cqs select`` (a selector keeps three per text) and
``maieutic cqs replay`` (a server answers a generator's requests with them).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from maieutic.data.files import read_keyed_records
from maieutic.errors import DataError
from maieutic.tasks.cqs.data import (
    MISSING_CQS,
    CQDataset,
    Intervention,
    load_cq_dataset,
    parse_cq_dataset,
    parse_submission,
)
from maieutic.wording import plural


@dataclass(frozen=True, kw_only=True)
class CandidateSet:
    """One text and the questions a system wrote for it, in its order."""

    intervention: Intervention
    """The text (with its references, where the dataset has them)."""
    questions: tuple[str, ...]
    labels: tuple[str | None, ...]
    """People's label of each question, where the file gives one (else None)."""


@dataclass(kw_only=True)
class Candidates:
    """Candidate sets by intervention id, and where they came from."""

    sets: dict[str, CandidateSet]
    source: str
    notes: list[str] = field(default_factory=list)
    """What was read differently from a plain file (entries with no questions…)."""

    def fingerprint(self) -> str:
        """A content hash of the texts and their candidates (labels included)."""
        canonical = [
            [iid, s.intervention.intervention, list(s.questions), list(s.labels)]
            for iid, s in sorted(self.sets.items())
        ]
        blob = json.dumps(canonical, ensure_ascii=False, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()

    @property
    def n_questions(self) -> int:
        """All candidate questions."""
        return sum(len(s.questions) for s in self.sets.values())

    def dataset(self) -> CQDataset:
        """The texts as a dataset (each with the references its dataset gave it)."""
        return CQDataset(
            interventions={iid: s.intervention for iid, s in self.sets.items()}, source=self.source
        )


def load_candidates(path: str | Path, *, data: str | Path | None = None) -> Candidates:
    """Read a candidates file in either layout (see the module docstring); ``data``
    gives the texts of a submission-layout file, and is refused with a dataset-layout
    one whose texts it would contradict."""
    where = str(path)
    records = read_keyed_records(path, "intervention_id")
    with_text = [k for k, r in records.items() if isinstance(r, dict) and "intervention" in r]
    if with_text and len(with_text) < len(records):
        missing = next(k for k in records if k not in with_text)
        raise DataError(
            f"{json.dumps(missing)}: no 'intervention' text, where other entries have one "
            "(a candidates file is either a dataset, every entry with its text, or a "
            "submission, whose texts come from --data)",
            where=where,
        )
    if with_text:
        return _from_dataset(records, where, data=data)
    if data is None:
        raise DataError(
            "the candidates have no texts (a submission layout): name the dataset they "
            "were written for with --data",
            where=where,
        )
    return _from_submission(records, where, data=load_cq_dataset(data, require_labels=False))


def _from_dataset(records: dict, where: str, *, data: str | Path | None) -> Candidates:
    dataset = parse_cq_dataset(records, where, require_labels=False)
    if data is not None:
        texts = load_cq_dataset(data, require_labels=False).interventions
        for iid, item in dataset.interventions.items():
            other = texts.get(iid)
            if other is not None and " ".join(other.intervention.split()) != " ".join(
                item.intervention.split()
            ):
                raise DataError(
                    f"{json.dumps(iid)}: its text differs from the one in {data}", where=where
                )
    sets = {}
    notes = []
    for iid, item in dataset.interventions.items():
        if not item.cqs:
            notes.append(f"{iid}: no candidate questions")
        sets[iid] = CandidateSet(
            intervention=Intervention(
                intervention_id=iid,
                intervention=item.intervention,
                dataset=item.dataset,
                schemes=item.schemes,
                cqs=item.cqs,
            ),
            questions=tuple(q.cq for q in item.cqs),
            labels=tuple(q.label for q in item.cqs),
        )
    return Candidates(sets=sets, source=where, notes=notes)


def _from_submission(records: dict, where: str, *, data: CQDataset) -> Candidates:
    submission = parse_submission(records, where)
    unknown = [k for k in submission.entries if k not in data.interventions]
    if unknown:
        raise DataError(
            f"{plural(len(unknown), 'intervention')} not in {data.source} "
            f"(first: {json.dumps(unknown[0])}): the candidates must be for its texts",
            where=where,
        )
    sets = {}
    notes = []
    for iid, entry in submission.entries.items():
        if entry.missing:
            notes.append(f"{iid}: {MISSING_CQS!r}, no candidate questions")
        questions = tuple(q.cq for q in entry.cqs or () if q.cq.strip())
        sets[iid] = CandidateSet(
            intervention=data.interventions[iid],
            questions=questions,
            labels=(None,) * len(questions),
        )
    return Candidates(sets=sets, source=where, notes=notes)
