"""Comparative answers from a language model, one per question and scenario, through
the shared client (cached, logged, retried), in the released answer layout."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from maieutic.generate.fanout import fan_out
from maieutic.generate.protocol import GenerationRun
from maieutic.llm.backends import describe
from maieutic.llm.client import CallFailed, LLMClient
from maieutic.llm.types import ChatRequest, GenerationParams
from maieutic.registry import Spec
from maieutic.signature import Signature
from maieutic.tasks.compqa.questions import ComparativeQuestion
from maieutic.tasks.compqa.scenarios import messages


@dataclass
class AnswerOutcome:
    """The answer written for one question in one scenario."""

    index: int
    scenario: str
    question: ComparativeQuestion
    comparison: str | None = None
    failure: str | None = None

    @property
    def failed(self) -> bool:
        """Whether the question got no answer."""
        return self.failure is not None

    def to_json(self) -> dict[str, Any]:
        """The answer in the released layout (``comparison`` empty when the call failed)."""
        return {**self.question.to_json(), "comparison": self.comparison or ""}


def questions_fingerprint(questions: Sequence[ComparativeQuestion]) -> str:
    """A short hash of the questions and their arguments (for signatures)."""
    payload = json.dumps([[q.object1, q.object2, q.aspect, q.arguments] for q in questions])
    return "sha256:" + hashlib.sha256(payload.encode()).hexdigest()[:16]


class ComparativeAnswerGenerator:
    """Answers to comparative questions under the four prompting scenarios."""

    uses_llm = True
    spec: Spec

    def __init__(
        self, client: LLMClient, scenarios: Sequence[str], params: GenerationParams
    ) -> None:
        self.client = client
        self.scenarios = tuple(scenarios)
        self.params = params

    def generate(
        self,
        dataset: Sequence[ComparativeQuestion],
        *,
        run_index: int = 0,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> GenerationRun:
        """An answer per question and scenario (outcomes ordered by scenario, then
        question)."""
        params = self.params.for_sample(run_index)
        jobs = [
            (
                (scenario, i),
                ChatRequest.of(
                    messages(question, scenario),
                    params=params,
                    sample_index=run_index,
                    tag=f"scenario-{scenario}-q{i}",
                ),
            )
            for scenario in self.scenarios
            for i, question in enumerate(dataset)
        ]
        replies, stats = fan_out(self.client, jobs, on_progress)
        outcomes = []
        for (scenario, i), _ in jobs:
            [reply] = replies[(scenario, i)]
            outcome = AnswerOutcome(i, scenario, dataset[i])
            if isinstance(reply, CallFailed):
                outcome.failure = f"model call failed: {reply.reason}"
            else:
                outcome.comparison = reply.text.strip()
            outcomes.append(outcome)
        return GenerationRun(outcomes, stats)

    def signature(self, dataset: Sequence[ComparativeQuestion]) -> Signature:
        """Generator, model, scenarios and questions."""
        model, backend = describe(self.client.backend)
        return Signature(
            task="compqa",
            generator="llm",
            dataset=questions_fingerprint(dataset),
            n_references=len(dataset),
            model=model,
            backend=backend,
            seed=self.params.seed,
            extra={
                "scenarios": ",".join(self.scenarios),
                "temperature": self.params.temperature,
                "max_tokens": self.params.max_tokens,
            },
        )
