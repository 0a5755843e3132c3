"""inspect_ai tasks scored by maieutic (``pip install 'maieutic[inspect]'``).

Installed with maieutic, they are found through inspect's entry-point group::

    inspect eval maieutic/cqs --model openai-api/local/smollm2 -T data=validation.json

Each task's dataset is read by maieutic's reader (never a copy), its prompt is the one
``maieutic generate cqs --generator llm`` sends, inspect's ``generate()`` asks the
model, and the scorer keeps questions from the reply by the generator's own rule and
labels them with maieutic's evaluator. The metric ``overall`` is the benchmark's overall
score (Useful / 3 per intervention, averaged): the number ``maieutic evaluate cqs``
gives for the same questions. The log's task metadata carries maieutic's signature.
"""

from __future__ import annotations

from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.scorer import Metric, SampleScore, Score, Target, metric, scorer
from inspect_ai.solver import TaskState, generate

from maieutic.errors import MaieuticError
from maieutic.integrations.bridge import DEFAULT_EVALUATOR, CQsBenchmark
from maieutic.integrations.options import benchmark_from

SCORED = "scored"
"""Score metadata: False where the evaluator could not score the item (left out of
``overall``, as ``maieutic evaluate`` leaves it out)."""


def _refuse(error: MaieuticError) -> Exception:
    """maieutic's one-line error as inspect reports a problem with the task's input:
    the line, no traceback."""
    try:
        from inspect_ai._util.error import PrerequisiteError
    except ImportError:  # a later inspect without it: its own report, our line first
        return RuntimeError(f"maieutic: {error}")
    return PrerequisiteError(f"maieutic: {error}")


def _benchmark(
    data: str | None,
    *,
    split: str | None,
    strategy: str,
    evaluator: str,
    threshold: float | None,
) -> CQsBenchmark:
    """The benchmark of the task's arguments, shared by the task and its scorer."""
    options = {
        "data": data,
        "split": split,
        "strategy": strategy,
        "evaluator": evaluator,
        "threshold": threshold,
    }
    return benchmark_from({k: v for k, v in options.items() if v is not None})


@metric
def overall() -> Metric:
    """The benchmark's overall score: the mean of the items' Useful / 3."""

    def compute(scores: list[SampleScore]) -> float:
        values = [s.score.as_float() for s in scores if (s.score.metadata or {}).get(SCORED, True)]
        return sum(values) / len(values) if values else float("nan")

    return compute


@scorer(metrics=[overall()])
def cqs_scorer(
    *,
    data: str | None = None,
    split: str | None = None,
    strategy: str = "detailed",
    evaluator: str = DEFAULT_EVALUATOR,
    threshold: float | None = None,
) -> Any:
    """maieutic's evaluator on the questions kept from each reply; the per-question
    labels and the evaluator's record in the score's metadata."""
    bench = _benchmark(
        data, split=split, strategy=strategy, evaluator=evaluator, threshold=threshold
    )

    async def score(state: TaskState, target: Target) -> Score:
        verdict = bench.score_reply(str(state.sample_id), reply=state.output.completion)
        return Score(
            value=0.0 if verdict.value is None else verdict.value,
            answer="\n".join(verdict.questions or []),
            explanation=verdict.explanation(),
            metadata={
                SCORED: verdict.value is not None,
                "questions": verdict.questions,
                "labels": verdict.labels,
                "notes": verdict.notes,
                "record": verdict.record,
            },
        )

    return score


@task
def cqs(
    *,
    data: str | None = None,
    split: str | None = None,
    strategy: str = "detailed",
    evaluator: str = DEFAULT_EVALUATOR,
    threshold: float | None = None,
) -> Task:
    """Critical questions (CQs-Gen): three questions per intervention, scored as the
    benchmark scores them.

    Args:
        data: the released file (validation or test layout), or a folder with ``split``;
            default: the labelled sample bundled with maieutic.
        split: which file of a folder (``validation``, ``test``…).
        strategy: the prompt (a strategy of ``maieutic generate cqs --generator llm``).
        evaluator: maieutic's evaluator (``sts``, ``llm-label``, ``usefulness``…).
        threshold: the evaluator's threshold (default: its own).
    """
    try:
        bench = _benchmark(
            data, split=split, strategy=strategy, evaluator=evaluator, threshold=threshold
        )
        described = bench.describe()
    except MaieuticError as error:
        raise _refuse(error) from None
    samples = [
        Sample(
            id=p.id,
            input=[ChatMessageSystem(content=p.system), ChatMessageUser(content=p.user)],
            metadata={"text": p.text},
        )
        for p in bench.prompts()
    ]
    params = bench.params
    return Task(
        dataset=MemoryDataset(samples, name=bench.path.stem, location=str(bench.path)),
        solver=generate(),
        scorer=cqs_scorer(
            data=data, split=split, strategy=strategy, evaluator=evaluator, threshold=threshold
        ),
        config=GenerateConfig(
            temperature=params.temperature,
            top_p=params.top_p,
            max_tokens=params.max_tokens,
            seed=params.seed,
        ),
        metadata=described,
    )
