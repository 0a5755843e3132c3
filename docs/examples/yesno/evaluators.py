"""The evaluator: exact match of each answer with the reference's."""

from __future__ import annotations

from maieutic.errors import DataError
from maieutic.evaluate import BaseEvaluator, EvalResult
from maieutic.registry import register
from maieutic.signature import Signature

from .data import Answers, Questions


class Exact(BaseEvaluator):
    """Accuracy over the reference's questions (an unanswered one counts as wrong)."""

    def prepare(self, reference: Questions, submissions, *, skip_unknown: bool) -> None:
        for submission in submissions:  # every check before anything is scored
            unknown = sorted(set(submission.answers) - set(reference.answers))
            if unknown and not skip_unknown:
                raise DataError(
                    f"id {unknown[0]!r} is not in the reference", where=submission.source
                )

    def evaluate_one(self, reference: Questions, submission: Answers) -> EvalResult:
        items = [
            {
                "id": key,
                "expected": expected,
                "answer": submission.answers.get(key),
                "score": float(submission.answers.get(key) == expected),
            }
            for key, expected in reference.answers.items()
        ]
        given = [a for k, a in submission.answers.items() if k in reference.answers]
        warnings = [f.short for f in submission.flags]
        if skipped := len(submission.answers) - len(given):  # with --skip-unknown
            warnings.append(f"skipped {skipped} id(s) absent from the reference")
        summary = {
            "accuracy": sum(i["score"] for i in items) / len(items),
            "n_answered": len(given),
            "yes_rate": given.count("yes") / len(given) if given else None,
        }
        signature = Signature(
            task="yesno",
            evaluator=self.spec.name,
            dataset=reference.fingerprint(),
            n_references=len(reference.answers),
        )
        return EvalResult(
            task="yesno", submission=submission.name, source=submission.source,
            signature=signature, evaluator=self.spec, score=summary["accuracy"], summary=summary,
            items=items, flags=submission.flags, warnings=warnings,
        )  # fmt: skip


@register("evaluator", task="yesno", name="exact")
def exact() -> Exact:
    """Exact match of each answer."""
    return Exact()
