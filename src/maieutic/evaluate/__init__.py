"""Shared evaluation machinery: the ``Evaluator`` protocol, the ``EvalResult`` type and
results file, the generic LLM judge, agreement reports, threshold sweeps and repeated
runs. Tasks build on these; see docs/adding-a-task.md."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from maieutic.evaluate.base import BaseEvaluator
from maieutic.evaluate.result import EvalResult
from maieutic.registry import Spec


class Evaluator(Protocol):
    """Scores system outputs against a task's reference data.

    Registered with ``@register("evaluator", task=TASK, name=NAME)``, so ``spec`` records how it
    was built. ``failures`` lists model calls that failed for good (the command exits
    1 after writing its results when there are any). ``BaseEvaluator`` implements the
    loop for evaluators that score one submission at a time.
    """

    spec: Spec

    @property
    def failures(self) -> list[str]:
        """Reasons of model calls that failed for good."""

    def evaluate(
        self,
        reference: Any,
        submissions: Sequence[Any],
        *,
        skip_unknown: bool = False,
        on_result: Callable[[EvalResult], None] | None = None,
    ) -> list[EvalResult]:
        """One result per submission, each handed to ``on_result`` as soon as it is done."""


__all__ = ["BaseEvaluator", "EvalResult", "Evaluator"]
