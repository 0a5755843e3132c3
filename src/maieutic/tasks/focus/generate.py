"""FOCUS generation: the shared outcome type, the model-free generator, and turning
outcomes into a prediction set (written as JSONL and as the released CSV layout)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from maieutic.engines.corpus import mapping_from
from maieutic.generate.per_item import PerItemGenerator
from maieutic.registry import Spec
from maieutic.signature import Signature
from maieutic.tasks.focus.cue_detector import MAX_TYPES, CueDetector
from maieutic.tasks.focus.socratic_wording import socratic_question
from maieutic.tasks.focus.type_labels import FocusItem, FocusSet, SpanLabel
from maieutic.tasks.focus.typology import typology


@dataclass(kw_only=True)
class FocusOutcome:
    """What a generator produced for one argument."""

    id: str
    labels: list[SpanLabel]
    problems: list[str] = field(default_factory=list)
    """Tolerated oddities (an unknown type name, a span not in the text…)."""
    failure: str | None = None
    """Why nothing could be produced (a model call that failed for good)."""
    raw: str | None = None
    """The model's reply, when there is one."""

    @property
    def failed(self) -> bool:
        """Whether the argument got no answer at all."""
        return self.failure is not None

    def to_json(self) -> dict[str, Any]:
        """The record kept in the generation's ``.meta.json``."""
        return {
            "labels": [label.to_json() for label in self.labels],
            "problems": self.problems,
            "failure": self.failure,
            "raw": self.raw,
        }


def to_prediction_set(outcomes: Sequence[FocusOutcome], dataset: FocusSet, name: str) -> FocusSet:
    """The predictions as a ``FocusSet`` keyed like ``dataset`` (a failed argument has
    no labels: None of the Above)."""
    items = mapping_from(outcomes, lambda: _predicted(outcomes, dataset))
    return FocusSet(items=items, source=name, name=name, layout="jsonl")  # type: ignore[arg-type]


def _predicted(outcomes: Iterable[FocusOutcome], dataset: FocusSet) -> Iterator[tuple[str, Any]]:
    for o in outcomes:
        yield o.id, replace(dataset.items[o.id], labels=tuple(o.labels), annotations=())


def focus_signature(generator: str, dataset: FocusSet, spec: Spec, **fields: Any) -> Signature:
    """The signature of a FOCUS generation over ``dataset``."""
    return Signature(
        task="focus",
        generator=generator,
        dataset=dataset.fingerprint(),
        n_references=len(dataset),
        extra={
            k: v
            for k, v in {**spec.args, **fields}.items()
            if isinstance(v, str | int | float | bool)
        },
    )


class FocusItemGenerator(PerItemGenerator[str, FocusItem, FocusOutcome]):
    """A model-free FOCUS generator: labels for each argument on its own."""

    def items(self, dataset: FocusSet) -> dict[str, FocusItem]:
        """The arguments, by id."""
        return dataset.items


class CueFocusGenerator(FocusItemGenerator):
    """Model-free: weakness types and spans from linguistic cues (``CueDetector``;
    deterministic: every run is the same)."""

    def __init__(
        self, use_categories: bool = True, wording: str = "restated", require_question: bool = False
    ) -> None:
        self.detector = CueDetector()
        self.use_categories = use_categories
        self.wording = wording
        self.require_question = require_question
        self.spec = Spec(
            kind="generator",
            task="focus",
            name="cues",
            args={
                "use_categories": use_categories,
                "wording": wording,
                "require_question": require_question,
            },
        )

    def _worded(
        self, item: FocusItem, labels: list[SpanLabel]
    ) -> tuple[list[SpanLabel], list[str]]:
        """The labels with their questions restated cleanly (``wording="restated"``); a
        label no clean question can be written for keeps its type and span, and no
        question (said in the problems)."""
        if self.wording == "template":
            return labels, []
        out, problems = [], []
        for label in labels:
            question = socratic_question(
                label.type, span=label.text, argument=item.argument, start=label.start
            )
            if question is None and label.question:
                problems.append(
                    f"{label.type}: no well-formed question for the span {label.text!r}"
                )
            out.append(replace(label, question=question))
        return out, problems

    def outcome(self, key: str, item: FocusItem, *, run_index: int) -> FocusOutcome:
        """The labels detected in one argument."""
        category = item.category if self.use_categories else None
        if self.require_question:
            # every type detected, in text order; the first two with a clean question
            found = self.detector.detect(item.argument, category, limit=len(typology().types))
            labels, _ = self._worded(item, found)
            return FocusOutcome(
                id=item.id, labels=[x for x in labels if x.question][:MAX_TYPES], problems=[]
            )
        found = self.detector.detect(item.argument, category)
        labels, problems = self._worded(item, found)
        return FocusOutcome(id=item.id, labels=labels, problems=problems)

    def signature(self, dataset: FocusSet) -> Signature:
        """The signature of what this generator writes for ``dataset``."""
        return focus_signature(self.spec.name, dataset, self.spec)


__all__ = [
    "CueFocusGenerator",
    "FocusItem",
    "FocusItemGenerator",
    "FocusOutcome",
    "focus_signature",
    "to_prediction_set",
]
