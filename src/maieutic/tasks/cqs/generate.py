"""Generating critical-question submissions: model-free templates or an LLM.

LLM generation builds every request up front (interventions × strategies × candidate
samples), runs them through the client (cached, so a killed run resumes without
repeating a finished call), parses each reply into questions, pools the candidates
of an intervention and lets a selector keep three. An intervention without three
usable questions becomes "Missing CQs" with the reason recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from maieutic.data.cqs import MISSING_CQS, CQDataset
from maieutic.generate.parsing import parse_questions
from maieutic.llm.client import CallFailed, LLMClient
from maieutic.llm.types import ChatRequest, GenerationParams
from maieutic.tasks.cqs.prompts import PromptBuilder
from maieutic.tasks.cqs.selection import Selector
from maieutic.tasks.cqs.template_generator import TemplateGenerator

QUESTIONS_PER_INTERVENTION = 3
RUN_SEED_STRIDE = 1000  # run k uses seed + 1000·k, so runs never share a sample's seed


@dataclass
class ItemOutcome:
    """What the generator produced for one intervention."""

    intervention_id: str
    questions: list[str] | None
    reason: str | None = None
    candidates: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """Whether this intervention ended as "Missing CQs"."""
        return self.questions is None


def to_submission(outcomes: Sequence[ItemOutcome]) -> dict[str, Any]:
    """The official submission layout."""
    return {
        o.intervention_id: {
            "intervention_id": o.intervention_id,
            "cqs": MISSING_CQS
            if o.questions is None
            else [{"id": i, "cq": q} for i, q in enumerate(o.questions)],
        }
        for o in outcomes
    }


def _finish(iid: str, candidates: list[str], selector: Selector, intervention, failure: str | None):
    chosen = selector(intervention, candidates, QUESTIONS_PER_INTERVENTION) if candidates else []
    if len(chosen) < QUESTIONS_PER_INTERVENTION:
        reason = failure or (
            f"only {len(chosen)} usable question(s) in the model output"
            if candidates or failure is None
            else "no usable question"
        )
        return ItemOutcome(iid, None, reason, candidates)
    return ItemOutcome(iid, chosen, None, candidates)


def generate_with_templates(
    dataset: CQDataset, generator: TemplateGenerator, selector: Selector, run_index: int = 0
) -> list[ItemOutcome]:
    """Model-free generation for every intervention."""
    outcomes = []
    for iid, item in dataset.interventions.items():
        candidates = generator.candidates(item, rotation=run_index)
        outcomes.append(_finish(iid, candidates, selector, item, None))
    return outcomes


def build_requests(
    dataset: CQDataset,
    builders: Sequence[PromptBuilder],
    params: GenerationParams,
    samples: int,
    run_index: int = 0,
) -> list[tuple[str, ChatRequest]]:
    """Every (intervention id, request) of a run, in a fixed order."""
    base = None if params.seed is None else params.seed + RUN_SEED_STRIDE * run_index
    run_params = GenerationParams(params.temperature, params.top_p, params.max_tokens, base)
    out = []
    for iid, item in dataset.interventions.items():
        for builder in builders:
            messages = builder.messages(item)
            for s in range(samples):
                request = ChatRequest.of(
                    messages,
                    params=run_params.for_sample(s),
                    sample_index=s,
                    tag=f"{iid}|{builder.strategy}",
                )
                out.append((iid, request))
    return out


def generate_with_llm(
    dataset: CQDataset,
    client: LLMClient,
    builders: Sequence[PromptBuilder],
    selector: Selector,
    *,
    params: GenerationParams,
    samples: int = 1,
    run_index: int = 0,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[ItemOutcome]:
    """LLM generation for every intervention; failures become "Missing CQs" with a reason."""
    pairs = build_requests(dataset, builders, params, samples, run_index)
    done = 0

    def progress(_: int, __: object) -> None:
        nonlocal done
        done += 1
        if on_progress:
            on_progress(done, len(pairs))

    results = client.run_all([r for _, r in pairs], on_done=progress)
    by_item: dict[str, list[ChatRequest | Any]] = {iid: [] for iid in dataset.interventions}
    for (iid, _), result in zip(pairs, results, strict=True):
        by_item[iid].append(result)
    outcomes = []
    for iid, item in dataset.interventions.items():
        candidates: list[str] = []
        failure = None
        for result in by_item[iid]:
            if isinstance(result, CallFailed):
                failure = failure or f"model call failed: {result.reason}"
                continue
            for question in parse_questions(result.text):
                if question.lower() not in {c.lower() for c in candidates}:
                    candidates.append(question)
        outcomes.append(
            _finish(iid, candidates, selector, item, failure if not candidates else None)
        )
    return outcomes
