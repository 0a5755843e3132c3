"""Evaluating critical-question submissions against a labelled dataset."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from maieutic.data.cqs import CQDataset, Intervention, Submission
from maieutic.errors import DataError
from maieutic.signature import Signature
from maieutic.tasks.cqs.matchers import Match, Matcher
from maieutic.tasks.cqs.scoring import (
    NAE,
    InterventionResult,
    QuestionResult,
    label_for,
    quality_flags,
    summarize,
)


@dataclass
class CQEvaluation:
    """The result of evaluating one submission."""

    submission: str
    source: str
    signature: Signature
    interventions: list[InterventionResult]
    summary: dict[str, Any]
    warnings: list[str] = field(default_factory=list)

    @property
    def overall(self) -> float | None:
        """The benchmark score: mean of the intervention scores."""
        return self.summary["overall"]

    def official_layout(self) -> dict[str, Any]:
        """Per-question results in the benchmark script's output layout.

        ``{id: {"intervention_id", "cqs": [{"id", "cq", "label", ...}] | "Missing CQs"}}``;
        maieutic adds ``best_reference_id`` and ``similarity`` to each question and
        ``score`` and ``flags`` to each intervention, which readers of the official
        layout ignore.
        """
        out: dict[str, Any] = {}
        for item in self.interventions:
            if item.questions is None:
                cqs: Any = "Missing CQs"
            else:
                cqs = [
                    {
                        "id": q.id,
                        "cq": q.cq,
                        "label": q.label,
                        "best_reference_id": q.best_reference_id,
                        "similarity": q.similarity,
                        **({"note": q.note} if q.note else {}),
                    }
                    for q in item.questions
                ]
            out[item.intervention_id] = {
                "intervention_id": item.intervention_id,
                "cqs": cqs,
                "score": item.score,
                "flags": item.flags,
            }
        return out

    def to_json(self) -> dict[str, Any]:
        """The full record written to a results file."""
        return {
            "submission": self.submission,
            "source": self.source,
            "signature": self.signature.as_dict(),
            "signature_string": str(self.signature),
            "summary": self.summary,
            "warnings": self.warnings,
            "evaluations": self.official_layout(),
        }


def judge_question(
    qid: str, text: str, match: Match, intervention: Intervention, threshold: float
) -> QuestionResult:
    """Turn a matcher's verdict into the question's label."""
    ref = intervention.cqs[match.reference_index] if match.reference_index is not None else None
    if match.label is not None:
        label = match.label
    elif ref is None or match.similarity is None:
        label = NAE
    else:
        label = label_for(match.similarity, ref.label, threshold)
    return QuestionResult(
        id=qid,
        cq=text,
        label=label,
        best_reference_id=ref.id if ref else None,
        similarity=None if match.similarity is None else round(match.similarity, 6),
        note=match.note,
    )


def check_ids(dataset: CQDataset, submission: Submission, *, skip_unknown: bool) -> list[str]:
    """Ids of the submission that are not in the dataset.

    An error by default (a typo or the wrong split would otherwise be scored on a
    subset without notice); with ``skip_unknown`` they are returned to be warned about.
    """
    unknown = [key for key in submission.entries if key not in dataset.interventions]
    if unknown and not skip_unknown:
        more = f" and {len(unknown) - 1} more" if len(unknown) > 1 else ""
        raise DataError(
            f"{unknown[0]!r}{more}: intervention id not in the reference data "
            f"{dataset.source} (use --skip-unknown to skip such entries)",
            where=submission.source,
        )
    return unknown


def evaluate_submissions(
    dataset: CQDataset,
    submissions: Sequence[Submission],
    matcher: Matcher,
    *,
    threshold: float | None = None,
    skip_unknown: bool = False,
    on_result: Callable[[CQEvaluation], None] | None = None,
) -> list[CQEvaluation]:
    """Evaluate each submission; ``on_result`` is called as soon as each one is done.

    Every id is checked before any model work starts, and all texts of all
    submissions are handed to the matcher at once so each distinct text is encoded
    once, in full batches.
    """
    threshold = matcher.default_threshold if threshold is None else threshold
    unknown_by_submission = [check_ids(dataset, s, skip_unknown=skip_unknown) for s in submissions]
    work = [
        (dataset.interventions[key], [q.cq for q in entry.cqs])
        for submission in submissions
        for key, entry in submission.entries.items()
        if key in dataset.interventions and entry.cqs
    ]
    matcher.prepare(work)

    fields = dict(matcher.signature_fields())
    signature = Signature(
        task="cqs",
        evaluator=matcher.name,
        model=fields.pop("model", None),  # type: ignore[arg-type]
        backend=fields.pop("backend", None),  # type: ignore[arg-type]
        # a judge's labels do not depend on a similarity threshold
        threshold=threshold if getattr(matcher, "uses_threshold", True) else None,
        dataset=dataset.fingerprint(),
        n_references=dataset.n_references,
        extra=fields,
    )
    evaluations = []
    for submission, unknown in zip(submissions, unknown_by_submission, strict=True):
        results = []
        for key, entry in submission.entries.items():
            if key in unknown:
                continue
            intervention = dataset.interventions[key]
            if entry.cqs is None:
                results.append(InterventionResult(key, None, flags=["Missing CQs"]))
                continue
            texts_of_entry = [q.cq for q in entry.cqs]
            matches = matcher.match(intervention, texts_of_entry)
            questions = []
            for question, m in zip(entry.cqs, matches, strict=True):
                verdict = judge_question(question.id, question.cq, m, intervention, threshold)
                questions.append(verdict)
            results.append(InterventionResult(key, questions, flags=quality_flags(texts_of_entry)))
        evaluation = _finish(dataset, submission, signature, results, unknown)
        evaluations.append(evaluation)
        if on_result:
            on_result(evaluation)
    return evaluations


def _finish(
    dataset: CQDataset,
    submission: Submission,
    signature: Signature,
    results: list[InterventionResult],
    unknown: list[str],
) -> CQEvaluation:
    summary = summarize(results)
    not_submitted = [k for k in dataset.interventions if k not in submission.entries]
    summary["n_unknown_skipped"] = len(unknown)
    summary["n_not_submitted"] = len(not_submitted)
    warnings = [f"{r.intervention_id}: {flag}" for r in results for flag in r.flags]
    if unknown:
        warnings.append(f"skipped {len(unknown)} id(s) not in the references: {unknown[:5]}")
    if not_submitted:
        warnings.append(
            f"{len(not_submitted)} reference intervention(s) absent from the submission "
            "are not counted in the score (as in the benchmark script)"
        )
    return CQEvaluation(
        submission=submission.name,
        source=submission.source,
        signature=signature,
        interventions=results,
        summary=summary,
        warnings=warnings,
    )
