"""Training data from the best answers ("Argument-Based Comparative Question Answering
Evaluation Benchmark", section 4: answers scoring at least 18 of 19 became the
fine-tuning set): each answer at or above a threshold becomes one chat-format record,
the question as the user's turn and the answer as the assistant's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from maieutic.tasks.compqa.data import Answer
from maieutic.tasks.compqa.judge import question_text

PAPER_THRESHOLD = 18.0


@dataclass(kw_only=True)
class Export:
    """The records and what was left out, and why."""

    records: list[dict[str, Any]] = field(default_factory=list)
    below: int = 0
    incomplete: int = 0
    empty: int = 0
    repeated: int = 0

    def counts(self) -> dict[str, int]:
        """For the closing line and the sidecar."""
        return {
            "exported": len(self.records),
            "below threshold": self.below,
            "incomplete scores": self.incomplete,
            "empty answers": self.empty,
            "repeated pairs": self.repeated,
        }


def sft_records(answers: Sequence[Answer], min_score: float = PAPER_THRESHOLD) -> Export:
    """Chat records for the answers whose computed total is at least ``min_score``;
    answers without a complete score are never exported (their total is unknown)."""
    export = Export()
    seen: set[tuple[str, str]] = set()
    for answer in answers:
        total = answer.check.total if answer.check is not None else None
        if total is None:
            export.incomplete += 1
            continue
        if total < min_score:
            export.below += 1
            continue
        if not answer.comparison.strip():
            export.empty += 1
            continue
        question = question_text(answer.object1, object2=answer.object2, aspect=answer.aspect)
        if (question, answer.comparison) in seen:
            export.repeated += 1
            continue
        seen.add((question, answer.comparison))
        export.records.append(
            {
                "messages": [
                    {"role": "user", "content": question},
                    {"role": "assistant", "content": answer.comparison},
                ],
                "metadata": {
                    "generator": answer.generator,
                    "scenario": answer.scenario,
                    "score": total,
                },
            }
        )
    return export
