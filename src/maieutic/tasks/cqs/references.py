"""Extending the references with evaluated submissions ("Benchmarking Critical Questions
Generation", section 5.1, "Augmenting the references").

A labelled submission (the official layout with a ``label`` on each question, as
``evaluate cqs --official-out`` writes or as a manual evaluation provides) adds its
Useful/Unhelpful/Invalid questions as extra references. When a submission is
evaluated, the extra references that came from that same submission are left out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from maieutic.data._io import read_keyed_records, type_name
from maieutic.data.cqs import LABELS, CQDataset, ReferenceQuestion
from maieutic.errors import DataError


@dataclass(frozen=True)
class LabelledSubmission:
    """Extra references from one evaluated submission."""

    name: str
    path: Path
    questions: dict[str, list[ReferenceQuestion]]


def load_labelled_submission(path: str | Path) -> LabelledSubmission:
    """Read the labelled questions of an evaluated submission (NAE/missing are skipped)."""
    path = Path(path)
    records = read_keyed_records(path, "intervention_id")
    questions: dict[str, list[ReferenceQuestion]] = {}
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
            if q.get("label") in LABELS and q["cq"].strip():
                ref_id = f"{path.stem}:{q.get('id', i)}"
                questions.setdefault(key, []).append(
                    ReferenceQuestion(ref_id, q["cq"].strip(), q["label"])
                )
    return LabelledSubmission(path.stem, path.resolve(), questions)


def with_extra_references(
    dataset: CQDataset, extras: list[LabelledSubmission], leave_out: Path | None = None
) -> CQDataset:
    """The dataset with the extra references added, except those from ``leave_out``."""
    leave = leave_out.resolve() if leave_out else None
    used = [e for e in extras if e.path != leave]
    interventions = {}
    for key, item in dataset.interventions.items():
        added = tuple(q for e in used for q in e.questions.get(key, []))
        interventions[key] = replace(item, cqs=item.cqs + added) if added else item
    return CQDataset(interventions, source=dataset.source, warnings=dataset.warnings)
