"""Two model-free generators: one answer for every question, and a negation rule."""

from __future__ import annotations

from collections.abc import Callable

from maieutic.errors import DataError
from maieutic.generate.protocol import GenerationRun
from maieutic.registry import Spec, register
from maieutic.signature import Signature

from .data import ANSWERS, Answer, Questions

NEGATIONS = ("not", "never", "no")


class Rule:
    """A generator that answers each question with a rule."""

    spec: Spec
    uses_llm = False

    def __init__(self, answer_for: Callable[[str], str]) -> None:
        self.answer_for = answer_for

    def generate(self, dataset: Questions, *, run_index=0, on_progress=None) -> GenerationRun:
        """One answer per question, in the file's order."""
        outcomes = [Answer(k, self.answer_for(q)) for k, q in dataset.questions.items()]
        if on_progress:
            on_progress(len(outcomes), len(outcomes))
        return GenerationRun(outcomes=outcomes)

    def signature(self, dataset: Questions) -> Signature:
        """What the answers depend on: the rule, its arguments and the questions."""
        return Signature(
            task="yesno",
            generator=self.spec.name,
            dataset=dataset.fingerprint(),
            extra=dict(self.spec.args),
        )


@register("generator", task="yesno", name="constant")
def constant(answer: str = "yes") -> Rule:
    """The same answer to every question (a baseline)."""
    if answer not in ANSWERS:
        raise DataError(f"answer must be yes or no, not {answer!r}")
    return Rule(lambda question: answer)


@register("generator", task="yesno", name="negation")
def negation() -> Rule:
    """Answers "no" to a question with a negation in it, "yes" to the others."""

    def answer_for(question: str) -> str:
        words = question.lower().rstrip("?").split()
        return "no" if any(w in NEGATIONS for w in words) else "yes"

    return Rule(answer_for)
