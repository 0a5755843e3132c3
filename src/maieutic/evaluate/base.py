"""The base of evaluators that score each submission on its own: the loop of the
``Evaluator`` protocol written once.

A subclass says what to check or prepare once for the whole run (``prepare``: every
check before any model work, shared work such as few-shot examples) and how to score
one submission (``evaluate_one``); ``evaluate`` does the rest: one result per
submission, each handed to ``on_result`` as soon as it is done.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from maieutic.evaluate.result import EvalResult
from maieutic.registry import Spec


class BaseEvaluator:
    """An ``Evaluator`` whose submissions are scored one after the other."""

    spec: Spec

    @property
    def failures(self) -> list[str]:
        """Reasons of model calls that failed for good (none by default)."""
        return []

    def prepare(self, reference: Any, submissions: Sequence[Any], *, skip_unknown: bool) -> None:
        """Checks and shared work before any submission is scored (nothing by default)."""

    def evaluate_one(self, reference: Any, submission: Any, /) -> EvalResult:
        """One submission's result (a hook called by position: each evaluator names the
        two as it likes)."""
        raise NotImplementedError

    def evaluate(
        self,
        reference: Any,
        submissions: Sequence[Any],
        *,
        skip_unknown: bool = False,
        on_result: Callable[[EvalResult], None] | None = None,
    ) -> list[EvalResult]:
        """One result per submission, each handed to ``on_result`` as soon as it is done."""
        self.prepare(reference, submissions, skip_unknown=skip_unknown)
        results = []
        for submission in submissions:
            result = self.evaluate_one(reference, submission)
            results.append(result)
            if on_result:
                on_result(result)
        return results
