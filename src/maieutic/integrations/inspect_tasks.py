"""inspect_ai tasks scored by maieutic (``pip install 'maieutic[inspect]'``).

Installed with maieutic, they are found through inspect's entry-point group::

    inspect eval maieutic/cqs --model openai-api/local/smollm2 -T data=validation.json
    inspect eval maieutic/focus | maieutic/compqa | maieutic/aura …

Each sample is one item of the task's data, read by maieutic's reader (never a copy);
its input is the chat request ``maieutic generate TASK --generator llm`` sends for it
(AURA sends one per passage: the solver asks each). The scorer hands the replies to
the task's own generator and evaluator (``maieutic.integrations.bridge``), so the
questions kept, the per-item records in the score's metadata and the metrics are what
``maieutic generate`` then ``maieutic evaluate`` give for the same replies. A judge the
evaluator asks (CompQA's rubric, the CQs LLM judges) is inspect's ``grader`` model role
(``--model-role grader=…``; without it, the model under evaluation).
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    get_model,
)
from inspect_ai.scorer import Metric, SampleScore, Score, Target, metric, scorer
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from maieutic.errors import MaieuticError
from maieutic.integrations.bridge import SPECS, Benchmark
from maieutic.integrations.options import benchmark_from
from maieutic.integrations.replay import Messages, llm_judges, messages_of
from maieutic.llm.types import BackendReply, ChatRequest, PermanentError

REQUESTS = "maieutic_requests"
"""Sample metadata: the chat requests maieutic sends for the item."""
REPLIES = "maieutic_replies"
"""Sample metadata (set by the solver of a task asking several requests an item)."""
ITEMS_SCORED = "items_scored"
"""The metric naming how many items a run scored (all, or the first ``--limit``)."""


def _refuse(error: MaieuticError) -> Exception:
    """maieutic's one-line error as inspect reports a problem with the task's input:
    the line, no traceback."""
    try:
        from inspect_ai._util.error import PrerequisiteError
    except ImportError:  # a later inspect without it: its own report, our line first
        return RuntimeError(f"maieutic: {error}")
    return PrerequisiteError(f"maieutic: {error}")


def _benchmark(name: str, options: dict[str, Any]) -> Benchmark:
    try:
        return benchmark_from(name, options)
    except MaieuticError as error:
        raise _refuse(error) from None


def _chat(messages: Messages) -> list[ChatMessage]:
    kinds = {"system": ChatMessageSystem, "user": ChatMessageUser}
    kinds["assistant"] = ChatMessageAssistant
    return [kinds[role](content=content) for role, content in messages]


# -- the judge: inspect's grader role behind maieutic's client -------------------------


class GraderBackend:
    """A maieutic LLM backend that asks inspect's ``grader`` model. maieutic's judges
    run on the benchmark's scoring thread (their client runs an event loop of its
    own); each call is sent to inspect's loop and awaited from there."""

    kind = "inspect"
    secrets: tuple[str, ...] = ()

    def __init__(self, model: Model, loop: asyncio.AbstractEventLoop) -> None:
        self.model = model
        self.loop = loop
        self.model_identity = f"inspect/{model}"
        self.judged: list[list[Any]] = []
        """Every call made, as ``judgement_record`` writes it: the sample's score keeps
        them, so ``maieutic import`` scores the run with the grader's own judgements."""

    async def chat(self, request: ChatRequest, timeout: float) -> BackendReply:
        """One grader call on inspect's loop."""
        config = GenerateConfig(
            temperature=request.params.temperature,
            max_tokens=request.params.max_tokens,
            seed=request.params.seed,
        )
        sent = self.model.generate(_chat(request.messages), config=config)
        output = await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(sent, self.loop))
        self.judged.append(judgement_record(request, output.completion))
        return BackendReply(text=output.completion, model=str(self.model))


def judgement_record(request: ChatRequest, reply: str) -> list[Any]:
    """One grader call as a log keeps it: messages, seed, reply."""
    return [[list(m) for m in request.messages], request.params.seed, reply]


class CachedGrader:
    """The grader as the metrics see it: its judgements come from maieutic's call
    cache, where scoring the samples put them (the same model identity, so the same
    cache keys). inspect computes metrics on its event loop, which therefore cannot
    run a grader call: one not in the cache fails, and that item counts as unscored in
    an interim figure (the final figures come after every sample is scored)."""

    kind = "inspect"
    secrets: tuple[str, ...] = ()

    def __init__(self, model_identity: str) -> None:
        self.model_identity = model_identity

    async def chat(self, request: ChatRequest, timeout: float) -> BackendReply:
        """Never reached for a cached judgement; refuses any other."""
        raise PermanentError("a grader judgement not yet made (scoring still running)")


class Threads:
    """The two threads a benchmark's work runs on, off inspect's event loop: one scores
    samples, one computes the metrics (which inspect computes while samples are still
    being scored). maieutic's generation and judges run an event loop of their own, and
    its caches are SQLite connections, which stay on the thread that opened them; each
    thread has its own evaluator (``Benchmark.evaluator``)."""

    def __init__(self, bench: Benchmark) -> None:
        self.bench = bench
        self.scoring = ThreadPoolExecutor(max_workers=1, thread_name_prefix="maieutic-score")
        self.metrics = ThreadPoolExecutor(max_workers=1, thread_name_prefix="maieutic-metric")
        self.grader: GraderBackend | None = None
        self._ready = False

    async def score(self, work: Callable[[], Any]) -> tuple[Any, list[list[Any]]]:
        """``work()`` on the scoring thread, its judges sent to the grader role; also
        the grader calls it made (one item is scored at a time on that thread)."""
        if not self._ready:
            judges = await asyncio.wrap_future(
                self.scoring.submit(lambda: list(llm_judges(self.bench.evaluator())))
            )
            if judges:
                self.grader = GraderBackend(get_model(role="grader"), asyncio.get_running_loop())
                for judge in judges:
                    judge.client.backend = self.grader
            self._ready = True

        def judged_work() -> tuple[Any, list[list[Any]]]:
            if self.grader is None:
                return work(), []
            self.grader.judged = []
            return work(), self.grader.judged

        return await asyncio.wrap_future(self.scoring.submit(judged_work))

    def metric(self, work: Callable[[], Any]) -> Any:
        """``work()`` on the metric thread (waited for: inspect's metrics are
        synchronous), its judges answered from the call cache only."""

        def prepared() -> Any:
            if self.grader is not None:
                for judge in llm_judges(self.bench.evaluator()):
                    judge.client.backend = CachedGrader(self.grader.model_identity)
            return work()

        return self.metrics.submit(prepared).result()


_THREADS: dict[int, Threads] = {}


def threads(bench: Benchmark) -> Threads:
    """The threads of ``bench`` (made on first use)."""
    if id(bench) not in _THREADS:
        _THREADS[id(bench)] = Threads(bench)
    return _THREADS[id(bench)]


# -- solver, scorer, metric ------------------------------------------------------------


@solver
def answer_each_request() -> Solver:
    """Ask the model every request maieutic sends for the item (AURA: one a passage),
    keeping the replies for the scorer; the last exchange stays in the transcript."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        replies = []
        for listed in state.metadata[REQUESTS]:
            output = await model.generate(_chat(messages_of(listed)), config=GenerateConfig())
            replies.append([listed, output.completion])
            state.output = output
        state.metadata[REPLIES] = replies
        return state

    return solve


def _replies(state: TaskState) -> list[list[Any]]:
    if REPLIES in state.metadata:
        return state.metadata[REPLIES]
    [listed] = state.metadata[REQUESTS]
    return [[listed, state.output.completion]]


@metric
def benchmark_figures() -> Metric:
    """The benchmark's figures over the whole run: its replies generated and scored at
    once, as ``maieutic evaluate`` scores the written file (the headline first)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        if not scores:  # inspect asks each metric of an empty group too: nothing to say
            return {}
        first = scores[0].score.metadata or {}
        bench = benchmark_from(first["task"], first["options"])
        replies = {
            messages_of(listed): reply
            for s in scores
            for listed, reply in (s.score.metadata or {}).get("replies", [])
        }
        figures = threads(bench).metric(lambda: bench.run_figures(replies))
        # what was scored, beside the figures: under --limit, fewer items than the data
        # file holds (the task's metadata describes the whole file)
        return {**figures, ITEMS_SCORED: float(len({s.sample_id for s in scores}))}

    return compute


@scorer(metrics=[benchmark_figures()])
def maieutic_scorer(*, task_name: str, options: str) -> Any:
    """The replies handed to the task's generator and evaluator: the item's score
    alone, the output maieutic writes for it and the evaluator's records in the
    score's metadata."""
    given = json.loads(options)
    bench = benchmark_from(task_name, given)

    async def score(state: TaskState, target: Target) -> Score:
        pairs = _replies(state)
        replies = {messages_of(listed): reply for listed, reply in pairs}
        verdict, judged = await threads(bench).score(
            lambda: bench.score_item(str(state.sample_id), replies)
        )
        scored = verdict.value is not None and not math.isnan(verdict.value)
        return Score(
            value=verdict.value if scored else 0.0,
            answer=json.dumps(verdict.output, ensure_ascii=False, default=str)[:2000],
            explanation=verdict.explanation(),
            metadata={
                "task": task_name,
                "options": given,
                "scored": scored,
                "replies": pairs,
                "output": verdict.output,
                "records": verdict.records,
                "notes": verdict.notes,
                "judged": judged,
                "grader": None
                if threads(bench).grader is None
                else threads(bench).grader.model_identity,
            },
        )

    return score


def _task(name: str, **options: Any) -> Task:
    """The inspect task of benchmark ``name`` for the run's options. Each task takes
    any ``-T`` name, so that one it does not know (``-T treshold=0.7``) is refused in
    one line naming the ones it takes: inspect itself would only warn and run every
    item with the default. inspect always passes ``model``, which no task uses."""
    options.pop("model", None)
    given = {k: v for k, v in options.items() if v is not None}
    bench = _benchmark(name, given)
    try:  # on the benchmark's thread, where its evaluator and caches will live
        items, described, params = (
            threads(bench)
            .scoring.submit(lambda: (bench.requests(), bench.describe(), bench.params))
            .result()
        )
    except MaieuticError as error:
        raise _refuse(error) from None
    samples = [
        Sample(
            id=item.id,
            input=_chat(item.messages),
            metadata={"text": item.text, REQUESTS: [list(map(list, r)) for r in item.requests]},
        )
        for item in items
    ]
    single = all(len(item.requests) == 1 for item in items)
    return Task(
        dataset=MemoryDataset(samples, name=f"{name}-{bench.path.stem}", location=str(bench.path)),
        solver=generate() if single else answer_each_request(),
        scorer=maieutic_scorer(task_name=name, options=json.dumps(given, sort_keys=True)),
        config=GenerateConfig(
            temperature=params.temperature,
            top_p=getattr(params, "top_p", None),
            max_tokens=params.max_tokens,
            seed=params.seed,
        ),
        metadata={
            **described,
            "items": len(items),
            "signature_covers": (
                f"all {len(items)} items of the data file; a run under --limit scores "
                f"fewer: the metric {ITEMS_SCORED!r} says how many, and "
                "`maieutic import inspect-log` writes their own signature"
            ),
        },
    )


@task
def cqs(
    *,
    data: str | None = None,
    split: str | None = None,
    strategy: str | None = None,
    evaluator: str | None = None,
    threshold: float | None = None,
    **unknown: Any,
) -> Task:
    """Critical questions (CQs-Gen): three questions per intervention; ``overall`` is
    the benchmark's score (Useful / 3 per intervention, averaged).

    Args:
        data: the released file (validation or test layout), or a folder with ``split``;
            default: the labelled sample bundled with maieutic.
        split: which file of a folder (``validation``, ``test``…).
        strategy: the prompt (a strategy of ``maieutic generate cqs --generator llm``).
        evaluator: maieutic's evaluator (``sts``, ``llm-label``, ``usefulness``…).
        threshold: the evaluator's threshold (default: its own).
    """
    return _task(
        "cqs",
        data=data,
        split=split,
        strategy=strategy,
        evaluator=evaluator,
        threshold=threshold,
        **unknown,
    )


@task
def focus(
    *,
    data: str | None = None,
    split: str | None = None,
    strategy: str | None = None,
    evaluator: str | None = None,
    **unknown: Any,
) -> Task:
    """FOCUS: a weakness type, its span and a Socratic question per argument;
    ``macro_f1`` over the types and the span metrics, as ``maieutic evaluate focus``.

    Args:
        data: the FOCUS file (released CSV or maieutic's JSONL), or a folder with
            ``split``; default: the sample bundled with maieutic.
        split: which file of a folder (``dev_gold``…).
        strategy: ``zero-shot``, ``few-shot`` or ``cot``.
        evaluator: maieutic's evaluator (``type-span``).
    """
    return _task("focus", data=data, split=split, strategy=strategy, evaluator=evaluator, **unknown)


@task
def compqa(
    *,
    data: str | None = None,
    scenario: str | None = None,
    evaluator: str | None = None,
    **unknown: Any,
) -> Task:
    """Comparative answers (CompQA): one answer per question in one of the four
    scenarios; ``rubric_total`` (0–19) by the rubric's rules, its LLM criteria judged
    by the ``grader`` model role with ``evaluator=rules+llm`` or ``llm``.

    Args:
        data: the comparative questions (JSON, JSONL or lines); default: the sample.
        scenario: ``1``–``4`` (default 1).
        evaluator: ``rules`` (offline; criteria it cannot decide stay unscored, so the
            total is undefined), ``rules+llm`` or ``llm``.
    """
    return _task("compqa", data=data, scenario=scenario, evaluator=evaluator, **unknown)


@task
def aura(
    *,
    data: str | None = None,
    strategy: str | None = None,
    granularity: str | None = None,
    evaluator: str | None = None,
    threshold: float | None = None,
    **unknown: Any,
) -> Task:
    """AURA: a question set for a document, asked per passage, page or the whole;
    ``aura`` is the mean of answerability, coverage, non-redundancy and entropy, each
    shown beside it.

    Args:
        data: the document (Markdown, text, PDF or passage JSON); default: the sample.
        strategy: the prompt of ``maieutic generate aura``.
        granularity: ``paragraph``, ``page`` or ``document``.
        evaluator: ``aura`` (bi-encoder) or ``aura-cross`` (the paper's reranker).
        threshold: the answerability threshold on the evaluator's scale.
    """
    return _task(
        "aura",
        data=data,
        strategy=strategy,
        granularity=granularity,
        evaluator=evaluator,
        threshold=threshold,
        **unknown,
    )


__all__ = ["SPECS", "aura", "compqa", "cqs", "focus"]
