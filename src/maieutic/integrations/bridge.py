"""One benchmark as an evaluation framework sees it: items with their prompts, a reply
turned into questions, and the benchmark's score of those questions.

Nothing here is rewritten for a framework: the prompts are those of the task's
registered ``llm`` generator (built through the registry with the same arguments),
a reply becomes questions by the generator's own rule
(``maieutic.tasks.cqs.generate.outcome_of_replies``) and the score is the task's
registered evaluator's. Frameworks call it one item at a time; ``evaluate`` scores a
whole run at once, as ``maieutic evaluate`` does.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maieutic.errors import DataError
from maieutic.evaluate.result import EvalResult
from maieutic.registry import create, names
from maieutic.samples import sample_path
from maieutic.tasks.cqs.data import CQDataset, Submission, load_cq_dataset, parse_submission
from maieutic.tasks.cqs.generate import outcome_of_replies
from maieutic.tasks.cqs.outcomes import ItemOutcome, submission_entries

BENCHMARKS = ("cqs",)
"""The benchmarks the frameworks can run (the others are still to come)."""

DEFAULT_EVALUATOR = "sts"
"""The benchmark's own evaluator (the leaderboard's embedding similarity)."""


@dataclass(frozen=True)
class Prompt:
    """One item as a framework sends it: its id, its text and the chat messages."""

    id: str
    text: str
    messages: tuple[tuple[str, str], ...]
    """(role, content) pairs: the task's system prompt, then the user prompt."""

    @property
    def system(self) -> str:
        """The system prompt (empty where there is none)."""
        return next((c for r, c in self.messages if r == "system"), "")

    @property
    def user(self) -> str:
        """The user prompt."""
        return next(c for r, c in reversed(self.messages) if r == "user")


@dataclass(frozen=True, kw_only=True)
class ItemScore:
    """The benchmark's verdict on one item's questions."""

    id: str
    value: float | None
    """The item's share of the overall score (Useful / 3); None: nothing to score."""
    questions: list[str] | None
    """The questions kept from the reply (None: none usable, "Missing CQs")."""
    labels: list[str]
    record: dict[str, Any]
    """The evaluator's per-item record, as a results file holds it."""
    notes: list[str]
    """What happened to the reply: cut, fewer than three questions, none usable."""

    def explanation(self) -> str:
        """One paragraph a person reads beside the score."""
        if self.questions is None:
            head = "no usable question (Missing CQs)"
        else:
            head = "; ".join(
                f"{q} [{label}]" for q, label in zip(self.questions, self.labels, strict=True)
            )
        return " ".join([head, *(f"({note})" for note in self.notes)])


def resolve_data(data: str | Path | None, *, split: str | None = None) -> Path:
    """The released file to read: ``data`` itself, or in a folder the file named after
    ``split`` (``validation.json``, or the one file starting ``validation``); without
    ``data``, the labelled sample bundled with maieutic."""
    if data is None:
        return sample_path("cqs/sample_dataset.json")
    path = Path(data)
    if not path.is_dir():
        if not path.exists():
            raise DataError("no such file", where=str(path))
        return path
    if split is None:
        raise DataError("a folder needs a split (split=validation, split=test…)", where=str(path))
    exact = path / f"{split}.json"
    if exact.is_file():
        return exact
    found = sorted(path.glob(f"{split}*.json"))
    if len(found) != 1:
        listed = ", ".join(p.name for p in found) or "none"
        raise DataError(
            f"split {split!r} should name one file {split}*.json (found: {listed})",
            where=str(path),
        )
    return found[0]


def check_evaluator(name: str) -> None:
    """Refuse an evaluator the task does not have, listing those it has."""
    known = names("evaluator", task="cqs")
    if name not in known:
        raise DataError(f"unknown evaluator {name!r} for cqs (known: {', '.join(known)})")


class CQsBenchmark:
    """Critical questions: interventions with labelled references; a system writes
    three questions each; an item's score is its Useful questions / 3."""

    task = "cqs"

    def __init__(
        self,
        data: str | Path | None = None,
        *,
        split: str | None = None,
        strategy: str = "detailed",
        evaluator: str = DEFAULT_EVALUATOR,
        evaluator_options: Mapping[str, Any] | None = None,
        generator_options: Mapping[str, Any] | None = None,
    ) -> None:
        check_evaluator(evaluator)
        self.path = resolve_data(data, split=split)
        self.split = split
        self.dataset: CQDataset = load_cq_dataset(self.path)
        self.evaluator_name = evaluator
        self.evaluator_options = dict(evaluator_options or {})
        self.generator = create(
            "generator",
            task="cqs",
            name="llm",
            strategies=(strategy,),
            **dict(generator_options or {}),
        )
        self._evaluator: Any = None
        self._lock = threading.Lock()  # frameworks score items from several threads

    @property
    def params(self) -> Any:
        """The generator's sampling settings (temperature, top-p, tokens, seed)."""
        return self.generator.params

    def prompts(self) -> list[Prompt]:
        """Every intervention with the messages the llm generator sends for it."""
        context, _ = self.generator.context_for(self.dataset)
        out = []
        for iid, request in self.generator.requests(self.dataset, 0, context):
            text = self.dataset.interventions[iid].intervention
            out.append(Prompt(id=iid, text=text, messages=tuple(request.messages)))
        return out

    def outcome(self, item_id: str, replies: Sequence[str]) -> tuple[ItemOutcome, list[str]]:
        """The questions the llm generator keeps from ``replies``, and its notes."""
        item = self._item(item_id)
        outcome, cut = outcome_of_replies(
            item_id,
            item,
            list(replies),
            selector=self.generator.selector,
            fill_from=self.generator.fill_from,
        )
        notes = [*cut, *([outcome.note] if outcome.note else [])]
        if outcome.questions is None and outcome.reason:
            notes.append(outcome.reason)
        return outcome, notes

    def submission(
        self, questions: Mapping[str, Sequence[str] | None], *, name: str = "submission"
    ) -> Submission:
        """A submission holding ``questions`` per intervention id (None: Missing CQs)."""
        outcomes = [
            ItemOutcome(intervention_id=k, questions=None if v is None else list(v), reason=None)
            for k, v in questions.items()
        ]
        return parse_submission(dict(submission_entries(outcomes)), f"<{name}>", name=name)

    def score_reply(self, item_id: str, *, reply: str) -> ItemScore:
        """The questions kept from one reply and the benchmark's verdict on them."""
        outcome, notes = self.outcome(item_id, [reply])
        return self.score_questions(item_id, outcome.questions, notes=notes)

    def score_questions(
        self, item_id: str, questions: Sequence[str] | None, *, notes: Sequence[str] = ()
    ) -> ItemScore:
        """The evaluator's verdict on one intervention's questions."""
        one = dataclasses.replace(self.dataset, interventions={item_id: self._item(item_id)})
        submission = self.submission({item_id: questions})
        with self._lock:
            [result] = self.evaluator().evaluate(one, [submission])
        [item] = result.items
        labels = [q.label for q in item.questions or []]
        return ItemScore(
            id=item_id,
            value=item.score,
            questions=None if questions is None else list(questions),
            labels=labels,
            record=item.to_json(),
            notes=list(notes),
        )

    def evaluate(
        self, questions: Mapping[str, Sequence[str] | None], *, name: str = "submission"
    ) -> EvalResult:
        """The whole run scored at once, as ``maieutic evaluate cqs`` scores a file."""
        [result] = self.evaluator().evaluate(self.dataset, [self.submission(questions, name=name)])
        return result

    def evaluator(self) -> Any:
        """The task's evaluator, built once (loading its model on first use)."""
        if self._evaluator is None:
            self._evaluator = create(
                "evaluator", task="cqs", name=self.evaluator_name, **self.evaluator_options
            )
        return self._evaluator

    def signature(self) -> str:
        """The evaluation's signature over the whole data file."""
        return str(self.evaluator().signature(self.dataset))

    def describe(self) -> dict[str, Any]:
        """What a framework's log records of the benchmark: data, generator, evaluator."""
        return {
            "maieutic_task": self.task,
            "data": str(self.path),
            "split": self.split,
            "generator": self.generator.spec.to_json(),
            "evaluator": self.evaluator_name,
            "evaluator_options": self.evaluator_options,
            "signature": self.signature(),
        }

    def _item(self, item_id: str) -> Any:
        try:
            return self.dataset.interventions[item_id]
        except KeyError:
            raise DataError(f"no intervention {item_id!r}", where=str(self.path)) from None
