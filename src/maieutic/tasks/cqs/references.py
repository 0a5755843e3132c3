"""Extending the references with evaluated submissions ("Benchmarking Critical Questions
Generation", section 5.1, "Augmenting the references").

A labelled submission (the official layout with a ``label`` on each question, as
``evaluate cqs --official-out`` writes or as a manual evaluation provides) adds its
Useful/Unhelpful/Invalid questions as extra references. When a submission is
evaluated, its own questions are left out of the extra references by content — the
same intervention and the same question text — so a labelled copy of the submission
at any path (or under any name) can never vouch for itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from maieutic.data.files import read_keyed_records, type_name
from maieutic.data.flags import Flag
from maieutic.errors import DataError
from maieutic.tasks.cqs.data import CQDataset, ReferenceQuestion, Submission
from maieutic.tasks.cqs.labels import KNOWN_REASONS, LABELS, read_label


@dataclass(frozen=True, kw_only=True)
class LabelledSubmission:
    """Extra references from one evaluated submission."""

    name: str
    path: Path
    questions: dict[str, list[ReferenceQuestion]]
    flags: list[Flag] = field(default_factory=list)
    """Labels read as the paper's reason for them (``KNOWN_REASONS``), flagged."""


def load_labelled_submission(path: str | Path) -> LabelledSubmission:
    """Read the labelled questions of an evaluated submission (NAE/missing are skipped;
    a label that is one of the paper's reasons, "Wrong reasoning", is read as Invalid
    and flagged)."""
    path = Path(path)
    records = read_keyed_records(path, "intervention_id", expected="a labelled submission")
    questions: dict[str, list[ReferenceQuestion]] = {}
    flags: list[Flag] = []
    for key, record in records.items():
        cqs = record.get("cqs") if isinstance(record, dict) else None
        if cqs == "Missing CQs":
            continue
        if not isinstance(cqs, list):
            raise DataError(f"{key!r}.cqs: expected an array, found {type_name(cqs)}", str(path))
        for i, q in enumerate(cqs):
            if not isinstance(q, dict) or not isinstance(q.get("cq"), str):
                raise DataError(
                    f"{key!r}.cqs[{i}]: expected an object with a 'cq' string", str(path)
                )
            label = q.get("label")
            if isinstance(label, str) and label in KNOWN_REASONS:
                label = read_label(
                    label, f"{key!r}.cqs[{i}].label", where=str(path), flags=flags, item=key
                )
            if label in LABELS and q["cq"].strip():
                ref_id = f"{path.stem}:{q.get('id', i)}"
                reason = q.get("reason") if isinstance(q.get("reason"), str) else None
                questions.setdefault(key, []).append(
                    ReferenceQuestion(id=ref_id, cq=q["cq"].strip(), label=label, reason=reason)
                )
    return LabelledSubmission(name=path.stem, path=path.resolve(), questions=questions, flags=flags)


def _same(text: str) -> str:
    return " ".join(text.split())


def with_extra_references(
    dataset: CQDataset, extras: list[LabelledSubmission], leave_out: Submission | None = None
) -> tuple[CQDataset, int]:
    """The dataset with the extra references added, and how many were left out because
    ``leave_out`` asks the same question (whitespace-insensitive) for the same
    intervention."""
    own: set[tuple[str, str]] = set()
    if leave_out is not None:
        own = {
            (key, _same(q.cq)) for key, entry in leave_out.entries.items() for q in entry.cqs or ()
        }
    interventions, n_left_out = {}, 0
    for key, item in dataset.interventions.items():
        added = []
        for extra in extras:
            for q in extra.questions.get(key, []):
                if (key, _same(q.cq)) in own:
                    n_left_out += 1
                else:
                    added.append(q)
        interventions[key] = replace(item, cqs=item.cqs + tuple(added)) if added else item
    merged = CQDataset(
        interventions=interventions,
        source=dataset.source,
        warnings=dataset.warnings,
        flags=[*dataset.flags, *(f for extra in extras for f in extra.flags)],
    )
    return merged, n_left_out
