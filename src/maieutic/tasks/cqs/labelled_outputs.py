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
  submissions of 3 in file order (``block``). Where an intervention has fewer (one
  system of the released file wrote 2), the short submission is put where every
  submission's integer ids count up — each system numbered its own questions — and
  the intervention is flagged with where it was put;
* an output that repeats a reference of its intervention word for word is flagged: it
  matches itself;
* a label that is one of the paper's reasons ("Wrong reasoning") is read as its
  label and flagged; any other label outside the three, or none, is an error;
* a ``reason`` field is kept; an intervention answered "Missing CQs" (a labelled
  submission may hold one) has nothing to judge and is flagged.

A plain file of labelled generated questions (no references in front) reads the same.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from pathlib import Path
from typing import Any

from maieutic.data.files import read_keyed_records, type_name
from maieutic.data.flags import Flag
from maieutic.errors import DataError
from maieutic.tasks.cqs.data import (
    EXPECTED_QUESTIONS,
    MISSING_CQS,
    CQDataset,
    Submission,
    SubmissionEntry,
    SubmittedQuestion,
)
from maieutic.tasks.cqs.labels import read_label, reason_of


@dataclass(frozen=True, kw_only=True)
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
    block: int = 0
    """The submission (system) it belongs to, counted from 0 in file order."""
    released_label: str | None = None
    """The label as the file gives it, when it was read as another (a known reason)."""


@dataclass(kw_only=True)
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
            submissions.append(
                Submission(entries=entries, source=self.source, name=f"system{block + 1:02d}")
            )
            labels.append([o.label for found in by_key.values() for o in found])
        return submissions, labels

    def fingerprint(self) -> str:
        """A content hash of what the figures depend on: ids, texts, labels."""
        canonical = [[o.intervention_id, o.position, o.cq, o.label] for o in self.outputs]
        blob = json.dumps(canonical, ensure_ascii=False, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _same(text: str) -> str:
    return " ".join(text.split())


def _text(raw: Any, at: str, *, where: str) -> str:
    if not isinstance(raw, dict):
        raise DataError(f"{at}: expected an object, found {type_name(raw)}", where)
    if not isinstance(raw.get("cq"), str):
        found = "nothing" if "cq" not in raw else type_name(raw["cq"])
        raise DataError(f"{at}.cq: expected a string, found {found}", where)
    return raw["cq"].strip()


def _reference_prefix(key: str, texts: list[str], *, references: list[str], where: str) -> int:
    """How many leading texts are the references: all of them, in order, or none. A
    file that starts with the first reference but then strays from them cannot be
    split into references and outputs: an error, never a guess (a reference read as an
    output would match itself)."""
    n = len(references)
    given = [_same(t) for t in texts[:n]]
    expected = [_same(r) for r in references]
    if n and given == expected:
        return n
    if n and given and given[0] == expected[0]:
        pairs = zip(given, expected, strict=False)
        differs = next((i for i, (a, b) in enumerate(pairs) if a != b), len(given))
        raise DataError(
            f"{key!r}.cqs[{differs}]: the questions start with the references of {key!r} "
            f"but question {differs} is not reference {differs} (or they end early): "
            "references and generated questions cannot be told apart",
            where,
        )
    return 0


def _is_increasing(ids: Sequence[Any]) -> bool:
    numbers = [i for i in ids if isinstance(i, int) and not isinstance(i, bool)]
    return len(numbers) == len(ids) and all(a < b for a, b in pairwise(numbers))


def _arrangements(length: int) -> list[tuple[int, ...]]:
    """Every way to cut ``length`` questions into ceil(length / 3) submissions of 3 but
    for the one or two questions missing (a submission of 2 anywhere, or of 1, or two of
    2)."""
    count = -(-length // EXPECTED_QUESTIONS)
    missing = count * EXPECTED_QUESTIONS - length
    full = [EXPECTED_QUESTIONS] * count
    if missing == 0:
        return [tuple(full)]
    out = []
    for i in range(count):
        sizes = list(full)
        sizes[i] = EXPECTED_QUESTIONS - missing
        out.append(tuple(sizes))
    if missing == 2:
        for i, j in combinations(range(count), 2):
            sizes = list(full)
            sizes[i] = sizes[j] = EXPECTED_QUESTIONS - 1
            out.append(tuple(sizes))
    return out


def _runs(ids: Sequence[Any]) -> list[int]:
    """Lengths of the runs of integer and of other ids (each system numbers its own)."""
    lengths: list[int] = []
    kind = None
    for value in ids:
        this = isinstance(value, int) and not isinstance(value, bool)
        if lengths and this == kind:
            lengths[-1] += 1
        else:
            lengths.append(1)
        kind = this
    return lengths


def blocks_of(ids: Sequence[Any]) -> tuple[list[int], list[int]]:
    """The submission (block) of each output from the ids as released, and the
    positions where a short submission starts (empty when every one has 3).

    Within each run of integer ids (and of other ids) the outputs are cut into
    submissions of 3 in order; a run that does not divide by 3 is cut where the most
    submissions' ids count up, and among equals with the short submissions last."""
    blocks: list[int] = []
    short_at: list[int] = []
    block, start = -1, 0
    for length in _runs(ids):
        run = list(ids[start : start + length])
        best = max(
            _arrangements(length),
            key=lambda sizes: (_count_increasing(run, sizes), sizes),
        )
        for size in best:
            block += 1
            if size < EXPECTED_QUESTIONS:
                short_at.append(len(blocks))
            blocks += [block] * size
        start += length
    return blocks, short_at


def _count_increasing(run: list[Any], sizes: tuple[int, ...]) -> int:
    count, at = 0, 0
    for size in sizes:
        count += _is_increasing(run[at : at + size])
        at += size
    return count


def _checked_record(key: str, record: Any, dataset: CQDataset, *, where: str) -> list[Any]:
    """The record's question list, once it is known to belong to ``key`` of ``dataset``."""
    if key not in dataset.interventions:
        raise DataError(
            f"{key!r}: intervention not in the references ({dataset.source}); its questions "
            "cannot be matched to an intervention",
            where,
        )
    if not isinstance(record, dict) or not isinstance(record.get("cqs"), list):
        found = type_name(record.get("cqs")) if isinstance(record, dict) else type_name(record)
        raise DataError(
            f"{key!r}.cqs: expected an array of labelled questions, found {found}", where
        )
    if record.get("intervention_id", key) != key:
        raise DataError(
            f"{key!r}.intervention_id: is {record.get('intervention_id')!r}, differs from its key",
            where,
        )
    text = record.get("intervention")
    if isinstance(text, str) and _same(text) != _same(dataset.interventions[key].intervention):
        raise DataError(
            f"{key!r}.intervention: not the text of {key!r} in the references "
            f"({dataset.source}); the questions were written for another text",
            where,
        )
    return record["cqs"]


def _output(
    key: str,
    raw: list[Any],
    texts: list[str],
    *,
    i: int,
    skipped: int,
    block: int,
    where: str,
    flags: list[Flag],
) -> LabelledOutput:
    """Question ``i`` of the record as a labelled output (an error when unlabelled)."""
    at, question = f"{key!r}.cqs[{i}]", raw[i]
    if "label" not in question:
        raise DataError(
            f"{at}: no 'label': agreement with people needs the label people gave each "
            "generated question",
            where,
        )
    label = read_label(question["label"], f"{at}.label", where=where, flags=flags, item=key)
    position = i - skipped
    return LabelledOutput(
        intervention_id=key,
        position=position,
        id=str(question.get("id", position)),
        cq=texts[i],
        label=label,
        reason=reason_of(question, where, at=at),
        block=block,
        released_label=None if label == question["label"] else question["label"],
    )


def _intervention(
    key: str, record: Any, dataset: CQDataset, *, where: str, flags: list[Flag]
) -> tuple[list[LabelledOutput], int]:
    """One intervention's outputs, and how many leading references were skipped."""
    if isinstance(record, dict) and record.get("cqs") == MISSING_CQS:
        flags.append(
            Flag(
                file=where,
                at=f"{key!r}.cqs",
                code="no-questions",
                message="Missing CQs: no question to judge",
                item=key,
            )
        )
        return [], 0
    raw = _checked_record(key, record, dataset, where=where)
    references = dataset.interventions[key].cqs
    texts = [_text(q, f"{key!r}.cqs[{i}]", where=where) for i, q in enumerate(raw)]
    skipped = _reference_prefix(key, texts, references=[q.cq for q in references], where=where)
    blocks, short_at = blocks_of([q.get("id") for q in raw[skipped:]])
    outputs = [
        _output(
            key,
            raw,
            texts,
            i=i,
            skipped=skipped,
            block=blocks[i - skipped],
            where=where,
            flags=flags,
        )
        for i in range(skipped, len(raw))
    ]
    same = {_same(q.cq) for q in references}
    flags += [
        Flag(
            file=where,
            at=f"{key!r}.cqs[{skipped + o.position}]",
            code="output-is-a-reference",
            message="repeats a reference of its intervention word for word: it matches itself",
            item=key,
        )
        for o in outputs
        if _same(o.cq) in same
    ]
    if short_at:
        positions = ", ".join(str(skipped + p) for p in short_at)
        flags.append(
            Flag(
                file=where,
                at=f"{key!r}.cqs",
                code="uneven-blocks",
                message=f"{len(outputs)} generated questions, not a multiple of "
                f"{EXPECTED_QUESTIONS}: "
                f"the short submission(s) start at cqs[{positions}], where every "
                "submission's ids count up",
                item=key,
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
        found, n_refs = _intervention(key, record, dataset, where=where, flags=flags)
        outputs += found
        skipped += n_refs
    if not outputs:
        raise DataError(
            f"no generated questions: every question repeats the references of {dataset.source}",
            where,
        )
    return LabelledOutputs(outputs=outputs, source=where, flags=flags, n_references_skipped=skipped)
