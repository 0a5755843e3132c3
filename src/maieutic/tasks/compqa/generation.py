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


@dataclass(kw_only=True)
class AnswerOutcome:
    """The answer written for one question in one scenario."""

    index: int
    scenario: str
    question: ComparativeQuestion
    comparison: str | None = None
    failure: str | None = None
    sample: int = 0
    """Which of the question's answers in this scenario (0 unless several are drawn)."""

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
    """Answers to comparative questions under the four prompting scenarios; with
    ``samples`` > 1, that many answers per question and scenario, each its own draw (its
    own seed and cache entry), as the paper drew three from the GPT models (n = 3) and
    scored each as a separate answer."""

    uses_llm = True
    spec: Spec

    def __init__(
        self,
        client: LLMClient,
        scenarios: Sequence[str],
        params: GenerationParams,
        *,
        samples: int = 1,
    ) -> None:
        self.client = client
        self.scenarios = tuple(scenarios)
        self.params = params
        self.samples = samples

    def generate(
        self,
        dataset: Sequence[ComparativeQuestion],
        *,
        run_index: int = 0,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> GenerationRun:
        """``samples`` answers per question and scenario (outcomes ordered by sample,
        scenario, then question)."""
        jobs = []
        for k in range(self.samples):
            draw = run_index * self.samples + k  # every draw its own seed and cache key
            suffix = f"-s{k + 1}" if self.samples > 1 else ""
            jobs += [
                (
                    (k, scenario, i),
                    ChatRequest.of(
                        messages(question, scenario),
                        params=self.params.for_sample(draw),
                        sample_index=draw,
                        tag=f"scenario-{scenario}-q{i}{suffix}",
                    ),
                )
                for scenario in self.scenarios
                for i, question in enumerate(dataset)
            ]
        replies, stats = fan_out(self.client, jobs, on_progress)
        outcomes = []
        for (k, scenario, i), _ in jobs:
            [reply] = replies[(k, scenario, i)]
            outcome = AnswerOutcome(index=i, scenario=scenario, question=dataset[i], sample=k)
            if isinstance(reply, CallFailed):
                outcome.failure = f"model call failed: {reply.reason}"
            else:
                outcome.comparison = reply.text.strip()
            outcomes.append(outcome)
        return GenerationRun(outcomes=outcomes, stats=stats)

    def signature(self, dataset: Sequence[ComparativeQuestion]) -> Signature:
        """Generator, model, scenarios and questions."""
        model, backend = describe(self.client.backend)
        extra = {
            "scenarios": ",".join(self.scenarios),
            "temperature": self.params.temperature,
            "max_tokens": self.params.max_tokens,
        }
        if self.samples > 1:  # one answer each signs as before
            extra["samples"] = self.samples
        return Signature(
            task="compqa",
            generator="llm",
            dataset=questions_fingerprint(dataset),
            n_references=len(dataset),
            model=model,
            backend=backend,
            seed=self.params.seed,
            extra=extra,
        )
