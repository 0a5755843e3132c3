"""Generated questions that people labelled: the data for judging evaluators against
people on system outputs ("Benchmarking Critical Questions Generation", section 6.1,
Figures 3 and 4).

The benchmark released such a file (``extended_test.json``): the dataset layout, each
intervention's reference questions first, then the questions that shared-task systems
wrote for it, each with the label people gave it. It is read as released:

* the leading questions that repeat the references of ``--data`` (the same texts, in
  the same order) are the references, and are skipped; the rest are the outputs;
* integer ids restart for every system (0, 1, 2, 0, 1, 2…): they are positions, not
  keys, and nothing is looked up by id;
* each system wrote 3 questions per intervention, so the outputs are read as
  submissions of 3, by position (``block``); an intervention whose outputs are not a
  multiple of 3 is flagged, since its last blocks may then straddle two systems;
* a label that is one of the paper's reasons ("Wrong reasoning") is read as its
  label and flagged; any other label outside the three, or none, is an error;
* a ``reason`` field is kept.

A plain file of labelled generated questions (no references in front) reads the same.
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
from maieutic.tasks.cqs.data import (
    EXPECTED_QUESTIONS,
    CQDataset,
    Submission,
    SubmissionEntry,
    SubmittedQuestion,
    read_label,
)


@dataclass(frozen=True)
class LabelledOutput:
    """One generated question with the label people gave it."""

    intervention_id: str
    position: int
    """Its place among the intervention's outputs (0-based)."""
    id: str
    """The id as released (integer ids repeat: not a key)."""
    cq: str
    label: str
    reason: str | None = None

    @property
    def block(self) -> int:
        """The submission it belongs to: outputs are read in blocks of 3."""
        return self.position // EXPECTED_QUESTIONS


@dataclass
class LabelledOutputs:
    """Every labelled output of a file, in file order."""

    outputs: list[LabelledOutput]
    source: str
    flags: list[Flag] = field(default_factory=list)
    n_references_skipped: int = 0

    def by_intervention(self) -> dict[str, list[LabelledOutput]]:
        """The outputs grouped by intervention, in file order."""
        grouped: dict[str, list[LabelledOutput]] = {}
        for output in self.outputs:
            grouped.setdefault(output.intervention_id, []).append(output)
        return grouped

    def as_systems(self) -> tuple[list[Submission], list[list[str]]]:
        """The outputs as one submission per system (block of 3, ``system01``…) and,
        for each, people's labels in the order its questions are read."""
        blocks: dict[int, dict[str, list[LabelledOutput]]] = {}
        for output in self.outputs:
            blocks.setdefault(output.block, {}).setdefault(output.intervention_id, []).append(
                output
            )
        submissions, labels = [], []
        for block, by_key in sorted(blocks.items()):
            entries = {
                key: SubmissionEntry(key, tuple(SubmittedQuestion(o.id, o.cq) for o in found))
                for key, found in by_key.items()
            }
            submissions.append(Submission(entries, self.source, f"system{block + 1:02d}"))
            labels.append([o.label for found in by_key.values() for o in found])
        return submissions, labels

    def fingerprint(self) -> str:
        """A content hash of what the figures depend on: ids, texts, labels."""
        canonical = [[o.intervention_id, o.position, o.cq, o.label] for o in self.outputs]
        blob = json.dumps(canonical, ensure_ascii=False, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _same(text: str) -> str:
    return " ".join(text.split())


def _text(raw: Any, at: str, where: str) -> str:
    if not isinstance(raw, dict):
        raise DataError(f"{at}: expected an object, found {type_name(raw)}", where)
    if not isinstance(raw.get("cq"), str):
        found = "nothing" if "cq" not in raw else type_name(raw["cq"])
        raise DataError(f"{at}.cq: expected a string, found {found}", where)
    return raw["cq"].strip()


def _reference_prefix(texts: list[str], references: list[str]) -> int:
    """How many leading texts are the references, in order (all of them or none)."""
    n = len(references)
    if n and len(texts) > n and [_same(t) for t in texts[:n]] == [_same(r) for r in references]:
        return n
    return 0


def _intervention(
    key: str, record: Any, dataset: CQDataset, where: str, flags: list[Flag]
) -> tuple[list[LabelledOutput], int]:
    if key not in dataset.interventions:
        raise DataError(
            f"{key!r}: intervention not in the references ({dataset.source}); its questions "
            "cannot be matched to an intervention",
            where,
        )
    item = dataset.interventions[key]
    if not isinstance(record, dict) or not isinstance(record.get("cqs"), list):
        found = type_name(record.get("cqs")) if isinstance(record, dict) else type_name(record)
        raise DataError(
            f"{key!r}.cqs: expected an array of labelled questions, found {found}", where
        )
    text = record.get("intervention")
    if isinstance(text, str) and _same(text) != _same(item.intervention):
        raise DataError(
            f"{key!r}.intervention: not the text of {key!r} in the references "
            f"({dataset.source}); the questions were written for another text",
            where,
        )
    raw = record["cqs"]
    texts = [_text(q, f"{key!r}.cqs[{i}]", where) for i, q in enumerate(raw)]
    skipped = _reference_prefix(texts, [q.cq for q in item.cqs])
    outputs = []
    for i in range(skipped, len(raw)):
        at = f"{key!r}.cqs[{i}]"
        question = raw[i]
        if "label" not in question:
            raise DataError(
                f"{at}: no 'label': agreement with people needs the label people gave "
                "each generated question",
                where,
            )
        label = read_label(question["label"], f"{at}.label", where, flags, key)
        reason = question.get("reason") if isinstance(question.get("reason"), str) else None
        position = i - skipped
        qid = str(question.get("id", position))
        outputs.append(LabelledOutput(key, position, qid, texts[i], label, reason))
    if len(outputs) % EXPECTED_QUESTIONS:
        flags.append(
            Flag(
                where,
                f"{key!r}.cqs",
                "uneven-blocks",
                f"{len(outputs)} generated questions, not a multiple of "
                f"{EXPECTED_QUESTIONS}: read as submissions of {EXPECTED_QUESTIONS} by "
                "position, the last one short",
                key,
            )
        )
    return outputs, skipped


def load_labelled_outputs(path: str | Path, dataset: CQDataset) -> LabelledOutputs:
    """Read human-labelled generated questions for the interventions of ``dataset``
    (see the module docstring). Every error is one line naming the file and path."""
    where = str(path)
    records = read_keyed_records(
        path, "intervention_id", expected="generated questions labelled by people"
    )
    flags: list[Flag] = []
    outputs: list[LabelledOutput] = []
    skipped = 0
    for key, record in records.items():
        found, n_refs = _intervention(key, record, dataset, where, flags)
        outputs += found
        skipped += n_refs
    if not outputs:
        raise DataError(
            f"no generated questions: every question repeats the references of {dataset.source}",
            where,
        )
    return LabelledOutputs(outputs, where, flags, skipped)
