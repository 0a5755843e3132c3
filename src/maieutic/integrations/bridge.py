"""A benchmark as an evaluation framework sees it: items with the chat requests
maieutic would send for them, the framework's replies turned into what ``maieutic
generate`` writes, and the score ``maieutic evaluate`` gives that.

Nothing is rewritten for a framework. The task's registered ``llm`` generator is built
through the registry with the run's options and given a client whose backend plays
recorded replies (``maieutic.integrations.replay``):

- to learn the requests, it generates once with a backend that records them;
- to score, it generates again with a backend that answers each request with the
  framework's reply to it, and its output is written and scored as the command line
  writes and scores a file (``maieutic.generate`` then ``maieutic.evaluate``).

So the prompts, the parsing of a reply, the choice among candidates and every figure
are maieutic's own, by construction. An item is generated alone with the prompt
context of the whole input (few-shot examples drawn from it), as the Ray engine
generates a batch, so an item's requests are the same alone as in the whole run.
"""

from __future__ import annotations

import contextlib
import logging
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from maieutic.errors import DataError
from maieutic.evaluate.result import EvalResult
from maieutic.integrations.replay import Messages, recording_client, replaying_client
from maieutic.registry import create, names
from maieutic.samples import sample_path


@dataclass(frozen=True, kw_only=True)
class BenchmarkSpec:
    """How one task runs inside a framework."""

    task: str
    title: str
    sample: str
    """The bundled data used when a run names none (``"<task>/<file>"``)."""
    evaluator: str
    """The default evaluator: the benchmark's own measure."""
    metric: str
    """The name of the headline figure (the result's ``score``) in a framework's log."""
    figures: Mapping[str, str] = field(default_factory=dict)
    """More figures shown beside it: name → dotted path in the result's summary."""
    strategies: str | None = None
    """The llm generator's argument naming its prompt (None: it has one prompt)."""
    has_reference: bool = True
    """Whether the data file is also the evaluation's reference."""
    split: bool = True
    """Whether the input splits into items (AURA: one document is one item)."""
    suffix: str = ".json"
    """The suffix ``maieutic generate`` writes its output with."""
    options: tuple[str, ...] = ("data", "split", "strategy", "evaluator", "threshold")
    """The options a framework run of this task takes (``maieutic.integrations.options``)."""
    generator_defaults: Mapping[str, Any] = field(default_factory=dict)
    """Generator arguments a framework run fixes (CompQA: one scenario a run)."""
    signed_by_reference: bool = True
    """Whether the evaluation's signature follows from the reference alone (AURA's
    counts the document's units, CompQA's the questions answered)."""


SPECS: dict[str, BenchmarkSpec] = {
    spec.task: spec
    for spec in (
        BenchmarkSpec(
            task="cqs",
            title="critical questions (CQs-Gen)",
            sample="cqs/sample_dataset.json",
            evaluator="sts",
            metric="overall",
            figures={"useful_rate": "useful_rate", "nae_rate": "nae_rate"},
            strategies="strategies",
        ),
        BenchmarkSpec(
            task="focus",
            title="weakness type, span and Socratic question (FOCUS)",
            sample="focus/sample_arguments.jsonl",
            evaluator="type-span",
            metric="macro_f1",
            figures={
                "span_jaccard": "spans.jaccard.mean",
                "span_rouge_l": "spans.rouge_l.mean",
            },
            strategies="strategy",
            suffix=".jsonl",
            options=("data", "split", "strategy", "evaluator"),
        ),
        BenchmarkSpec(
            task="compqa",
            title="comparative answers (CompQA)",
            sample="compqa/questions.jsonl",
            evaluator="rules",
            metric="rubric_total",
            figures={
                "structure": "groups.structure",
                "relevance": "groups.relevance",
                "quality": "groups.quality",
            },
            has_reference=False,
            options=("data", "scenario", "evaluator"),
            signed_by_reference=False,
            generator_defaults={"scenarios": ["1"]},
        ),
        BenchmarkSpec(
            task="aura",
            title="question sets for a document (AURA)",
            sample="aura/sample_passage.json",
            evaluator="aura",
            metric="aura",
            figures={
                "answerability": "answerability",
                "coverage": "coverage",
                "non_redundancy": "non_redundancy",
                "entropy": "entropy",
            },
            strategies="strategy",
            split=False,
            options=("data", "strategy", "granularity", "evaluator", "threshold"),
            signed_by_reference=False,
        ),
    )
}
"""The benchmarks the frameworks can run."""

BENCHMARKS = tuple(SPECS)

FRAMEWORK_MODEL = "framework"
FRAMEWORK_URL = "http://framework.invalid/v1"
"""What a generation record names as the model: the framework asked it, maieutic never
called this address (``.invalid`` never resolves)."""


@dataclass(frozen=True, kw_only=True)
class ItemRequests:
    """One item as a framework sends it: its id, its text and the chat requests maieutic
    sends for it (one for most tasks; one per passage for AURA)."""

    id: str
    text: str
    requests: tuple[Messages, ...]

    @property
    def messages(self) -> Messages:
        """The first request (the only one for most tasks)."""
        return self.requests[0]


@dataclass(frozen=True, kw_only=True)
class Verdict:
    """What maieutic made of one item's replies, and its score."""

    id: str
    value: float | None
    """The item's score alone (the result's ``score`` for this item; None: undefined,
    e.g. a rubric total with criteria left unscored)."""
    output: Any
    """What ``maieutic generate`` writes for the item."""
    records: list[dict[str, Any]]
    """The evaluator's per-item records, as a results file holds them."""
    notes: list[str]
    """What generation said of the replies (cut, fewer questions, none usable…)."""

    def explanation(self) -> str:
        """A paragraph a person reads beside the score."""
        parts = [_explained(record) for record in self.records] or ["nothing to score"]
        return " ".join([*parts, *(f"({note})" for note in self.notes)])


def _explained(record: dict[str, Any]) -> str:
    questions = record.get("cqs")
    if isinstance(questions, list):
        return "; ".join(f"{q['cq']} [{q['label']}]" for q in questions)
    if questions == "Missing CQs":
        return "no usable question (Missing CQs)"
    shown = {
        key: value
        for key, value in record.items()
        if not isinstance(value, (dict, list))
        or all(not isinstance(v, (dict, list)) for v in value)
    }
    return ", ".join(f"{k}: {_clip(v)}" for k, v in shown.items())


def _clip(value: Any, limit: int = 80) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def resolve_data(task: str, data: str | Path | None, *, split: str | None = None) -> Path:
    """The file to read: ``data`` itself, or in a folder the file named after ``split``
    (``validation.json``, or the one file starting ``validation``); without ``data``,
    the task's sample bundled with maieutic."""
    if data is None:
        return sample_path(SPECS[task].sample)
    if not str(data).strip():
        raise DataError("data is empty: name a file (or a folder with a split)")
    path = Path(data)
    if not path.is_dir():
        if not path.exists():
            raise DataError("no such file", where=str(path))
        return path
    if split is None:
        raise DataError("a folder needs a split (split=validation, split=test…)", where=str(path))
    found = [p for p in sorted(path.glob(f"{split}*")) if p.is_file()]
    exact = [p for p in found if p.stem == split]
    if len(exact) == 1 or len(found) == 1:
        return (exact or found)[0]
    listed = ", ".join(p.name for p in found) or "none"
    raise DataError(
        f"split {split!r} should name one file {split}* (found: {listed})", where=str(path)
    )


def check_name(kind: str, *, task: str, name: str) -> None:
    """Refuse a component the task does not have, listing those it has."""
    known = names(kind, task=task)
    if name not in known:
        raise DataError(f"unknown {kind} {name!r} for {task} (known: {', '.join(known)})")


class Benchmark:
    """One task's data, generator options and evaluator, as a framework runs them."""

    def __init__(
        self,
        task: str,
        *,
        data: str | Path | None = None,
        split: str | None = None,
        generator_options: Mapping[str, Any] | None = None,
        evaluator: str | None = None,
        evaluator_options: Mapping[str, Any] | None = None,
    ) -> None:
        from maieutic.core import get_task
        from maieutic.core.task_io import task_io

        if task not in SPECS:
            raise DataError(f"unknown task {task!r} (known: {', '.join(BENCHMARKS)})")
        self.spec = SPECS[task]
        self.task = task
        # only an option not given takes the default: an empty name is refused below
        self.evaluator_name = self.spec.evaluator if evaluator is None else evaluator
        check_name("evaluator", task=task, name=self.evaluator_name)
        self.path = resolve_data(task, data, split=split)
        self.split = split
        self.found = get_task(task)
        self.io = task_io(self.found)
        self.data = self.io.read_generation_input(self.found, self.path)
        self.generator_options = {**self.spec.generator_defaults, **(generator_options or {})}
        self.evaluator_options = dict(evaluator_options or {})
        self.reference = self.found.load_reference(self.path) if self.spec.has_reference else None
        self._whole: Any = None
        self._requests: list[ItemRequests] | None = None
        # frameworks score from several threads: each has its own evaluator
        self._local = threading.local()
        self.generator(recording_client())  # refuse bad generator options now

    # -- generation -------------------------------------------------------------------

    def generator(self, client: Any) -> Any:
        """The task's llm generator with the run's options, calling ``client``."""
        # the factory builds a client of its own, replaced at once: named as a stand-in
        # server (a reserved name that never resolves), it needs no installed model
        stand_in = {"llm": FRAMEWORK_MODEL, "base_url": FRAMEWORK_URL}
        component = create(
            "generator", task=self.task, name="llm", **{**stand_in, **self.generator_options}
        )
        component.client = client
        if hasattr(component, "context_for"):
            if self._whole is None:  # the few-shot pool and exclusions of the whole input
                self._whole = component.context_for(self.io.generator_input(self.data))
            component.whole_input = self._whole
        return component

    @property
    def params(self) -> Any:
        """The generator's sampling settings (temperature, top-p, tokens, seed)."""
        return self.generator(recording_client()).params

    def items(self) -> dict[str, Any]:
        """The items by id, as maieutic reads them (AURA: the document)."""
        if not self.spec.split:
            return {self.path.stem: self.data}
        return dict(self.io.items(self.data))

    def item_data(self, item_id: str) -> Any:
        """The input holding ``item_id`` only."""
        if not self.spec.split:
            return self.data
        items = self.io.items(self.data)
        if item_id not in items:
            raise DataError(f"no item {item_id!r}", where=str(self.path))
        return self.io.with_items(self.data, {item_id: items[item_id]})

    def requests(self) -> list[ItemRequests]:
        """Every item with the chat requests maieutic sends for it, in order (learned
        once: the generator is deterministic in what it asks)."""
        if self._requests is not None:
            return self._requests
        out = []
        for item_id in self.items():
            client = recording_client()
            self._generate(self.item_data(item_id), client=client)
            sent = tuple(dict.fromkeys(r.messages for r in client.backend.history))
            out.append(ItemRequests(id=item_id, text=self._text(item_id), requests=sent))
        self._requests = out
        return out

    def _text(self, item_id: str) -> str:
        if not self.spec.split:
            return getattr(self.data, "text", "") or str(self.path)
        item = self.io.items(self.data)[item_id]
        for name in ("intervention", "argument", "question", "text"):
            value = getattr(item, name, None)
            if isinstance(value, str):
                return value
            if value is not None and hasattr(value, "text"):
                return str(value.text)
        return str(item)

    def _generate(self, data: Any, *, client: Any) -> Any:
        from maieutic.run import generate

        return generate(self.task, data, generator=self.generator(client))

    # -- scoring ----------------------------------------------------------------------

    def evaluator(self) -> Any:
        """The task's evaluator, built once per thread (loading its model on first use):
        its caches are SQLite connections, which stay on the thread that opened them."""
        built = getattr(self._local, "evaluator", None)
        if built is None:
            built = create(
                "evaluator", task=self.task, name=self.evaluator_name, **self.evaluator_options
            )
            self._local.evaluator = built
        return built

    def score_item(self, item_id: str, replies: Mapping[Messages, str]) -> Verdict:
        """The item generated from ``replies`` (request → reply) and scored alone."""
        generation = self._generate(self.item_data(item_id), client=replaying_client(replies))
        reference = self.reference
        if reference is not None and self.spec.split:
            reference = self._only(reference, [item_id])
        run = generation.runs[0]
        notes = [*run.warnings, *(str(n) for n in _notes(run))]
        output = generation.parts[0].output
        try:
            [result] = self._scored(generation, reference=reference, name=item_id).results
        except DataError as error:  # what it wrote cannot be scored (no question at all)
            notes.append(f"nothing to score: {error}")
            return Verdict(id=item_id, value=None, output=output, records=[], notes=notes)
        return Verdict(
            id=item_id, value=result.score, output=output, records=result.records(), notes=notes
        )

    def replayed(self, replies: Mapping[Messages, str]) -> Any:
        """What ``maieutic generate`` writes for the whole input given ``replies``
        (a ``maieutic.run.Generation``). Items the run did not answer are left out (a
        framework's run of ``--limit`` items): an item needs a reply to every request,
        but a document (AURA) is kept with the passages it has."""
        answered = set(replies)
        covered = all if self.spec.split else any
        kept = [i for i in self.requests() if covered(r in answered for r in i.requests)]
        if not kept:
            raise DataError("no item has a reply to score")
        data = self._only(self.data, [i.id for i in kept]) if self.spec.split else self.data
        return self._generate(data, client=replaying_client(replies))

    def score(self, generation: Any, *, name: str = "run") -> Any:
        """``generation`` written and scored as ``maieutic evaluate`` scores the file
        (a ``maieutic.run.Evaluation``), against the reference items it covers."""
        reference = self.reference
        if reference is not None and self.spec.split:
            ids = list(self.io.items(generation.data))
            reference = self._only(reference, ids)
        return self._scored(generation, reference=reference, name=name)

    def evaluate(self, replies: Mapping[Messages, str], *, name: str = "run") -> EvalResult:
        """The figures of the whole run: ``replayed`` then ``score``."""
        [result] = self.score(self.replayed(replies), name=name).results
        return result

    def _only(self, data: Any, ids: Sequence[str]) -> Any:
        """``data`` holding the items ``ids`` only (all of them: the very same object)."""
        items = self.io.items(data)
        if list(items) == list(ids):
            return data
        return self.io.with_items(data, {i: items[i] for i in ids})

    def run_figures(self, replies: Mapping[Messages, str]) -> dict[str, float]:
        """The figures of the whole run for a framework's log: NaN where what the run
        wrote cannot be scored at all (an AURA document with no question), as
        ``maieutic evaluate`` refuses such a file."""
        try:
            return self.figures(self.evaluate(replies))
        except DataError as error:
            # said where the framework shows it (its log), not only in the NaN
            logging.getLogger(__name__).warning("maieutic %s: %s", self.task, error)
            return {name: float("nan") for name in (self.spec.metric, *self.spec.figures)}

    def figures(self, result: EvalResult) -> dict[str, float]:
        """The headline and the other figures of ``result``, by their framework names."""
        out = {self.spec.metric: _number(result.score)}
        for name, path in self.spec.figures.items():
            value: Any = result.summary
            for key in path.split("."):
                value = value.get(key) if isinstance(value, dict) else None
            out[name] = _number(value)
        return out

    def _scored(self, generation: Any, *, reference: Any, name: str) -> Any:
        from maieutic.run import evaluate

        with _folder() as folder:
            [written, *_] = generation.save(folder / f"{_safe(name)}{self.spec.suffix}")
            try:
                return evaluate(
                    self.task, reference, submissions=[str(written)], evaluator=self.evaluator()
                )
            except DataError as error:
                if error.where != str(written):
                    raise
                # the written file is a passing thing: name what was wrong with it
                raise DataError(
                    f"what the replies give cannot be scored: {error.message}"
                ) from None

    def signature(self) -> str | None:
        """The evaluation's signature over the whole data file (what a results file of
        ``maieutic evaluate`` on the same data carries); None for a task whose signature
        is not the reference's alone (the results file has it)."""
        if self.reference is None or not self.spec.signed_by_reference:
            return None
        return str(self.evaluator().signature(self.reference))

    def describe(self) -> dict[str, Any]:
        """What a framework's log records of the benchmark: data, generator, evaluator."""
        return {
            "maieutic_task": self.task,
            "data": str(self.path),
            "split": self.split,
            "generator": self.generator(recording_client()).spec.to_json(),
            "evaluator": self.evaluator_name,
            "evaluator_options": self.evaluator_options,
            "signature": self.signature(),
        }


def _notes(run: Any) -> Iterator[str]:
    notes = getattr(run, "notes", None) or {}
    if isinstance(notes, dict):
        yield from (f"{k}: {v}" for k, v in notes.items())
    else:
        yield from (str(n) for n in notes)


def _number(value: Any) -> float:
    return (
        float(value)
        if isinstance(value, (int, float)) and not isinstance(value, bool)
        else float("nan")
    )


def _safe(name: str) -> str:
    # a scratch file's name: kept short (a 100 KB name is no file name) and plain
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "_" for c in name[:100])
    return safe.strip(".") or "run"


@contextlib.contextmanager
def _folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="maieutic-bridge-") as folder:
        yield Path(folder)


def as_replies(pairs: Sequence[tuple[Messages, str]]) -> dict[Messages, str]:
    """Request → reply, from the pairs a framework's log holds."""
    return {tuple(map(tuple, messages)): reply for messages, reply in pairs}  # type: ignore[misc]


__all__ = [
    "BENCHMARKS",
    "SPECS",
    "Benchmark",
    "BenchmarkSpec",
    "ItemRequests",
    "Verdict",
    "as_replies",
    "resolve_data",
]
