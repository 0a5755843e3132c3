"""What a critical-questions generator produced for each intervention, and the official
submission written from it.

Every generator (template, LLM, claims, pooled) ends with one ``ItemOutcome`` per
intervention, so the type sits below all of them: a generator that builds on another
(the LLM one filling up from the claims one) imports neither for it. The model-free
ones (template, claims) share ``InterventionGenerator``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from maieutic.generate.per_item import PerItemGenerator
from maieutic.generate.protocol import GenerationRun
from maieutic.tasks.cqs.data import MISSING_CQS, CQDataset, Intervention


@dataclass(kw_only=True)
class ItemOutcome:
    """What the generator produced for one intervention."""

    intervention_id: str
    questions: list[str] | None
    reason: str | None = None
    candidates: list[str] = field(default_factory=list)
    note: str | None = None
    """Why fewer than three questions were written, when that is not a failure."""
    rejected: dict[str, list[str]] = field(default_factory=dict)
    """Candidates the well-formedness check refused, with what it found."""
    filled: list[str] = field(default_factory=list)
    """Questions added from an offline generator (``--fill-from``), not the model's."""

    @property
    def failed(self) -> bool:
        """Whether this intervention ended as "Missing CQs"."""
        return self.questions is None


class InterventionGenerator(PerItemGenerator[str, Intervention, ItemOutcome]):
    """A model-free critical-questions generator: questions for each intervention on
    its own, the notes of the outcomes said for the run."""

    def items(self, dataset: CQDataset) -> dict[str, Intervention]:
        """The interventions, by id."""
        return dataset.interventions

    def finish(self, dataset: CQDataset, outcomes: list[ItemOutcome]) -> GenerationRun:
        """The outcomes with their notes."""
        return GenerationRun(outcomes=outcomes, notes=outcome_notes(outcomes))


def outcome_notes(outcomes: Sequence[ItemOutcome]) -> list[str]:
    """The run's notes: each intervention's note, after its id."""
    return [f"{o.intervention_id}: {o.note}" for o in outcomes if o.note]


def to_submission(outcomes: Sequence[ItemOutcome]) -> dict[str, Any]:
    """The official submission layout."""
    return dict(submission_entries(outcomes))


def submission_entries(outcomes: Iterable[ItemOutcome]) -> Iterator[tuple[str, Any]]:
    """The submission's (id, entry) pairs, one outcome at a time."""
    for o in outcomes:
        listed = [{"id": i, "cq": q} for i, q in enumerate(o.questions or [])]
        cqs = MISSING_CQS if o.questions is None else listed
        yield o.intervention_id, {"intervention_id": o.intervention_id, "cqs": cqs}
