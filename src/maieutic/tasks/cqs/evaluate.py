"""Evaluating critical-question submissions against a labelled dataset.

``CQEvaluator`` pairs a matcher (embedding similarity, chrF or an LLM judge) with a
threshold and applies the benchmark's scoring rules; it is what the registered
evaluators (``maieutic.tasks.cqs.evaluators``) build.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from maieutic.data.flags import Flag
from maieutic.errors import DataError
from maieutic.evaluate.agreement import UNSCORED
from maieutic.evaluate.base import BaseEvaluator
from maieutic.evaluate.result import EvalResult
from maieutic.language.wellformed import check_question
from maieutic.registry import Spec
from maieutic.signature import Signature
from maieutic.tasks.cqs.data import CQDataset, Intervention, Submission
from maieutic.tasks.cqs.dataset_stats import breakdown
from maieutic.tasks.cqs.matchers import Match, Matcher
from maieutic.tasks.cqs.references import LabelledSubmission, with_extra_references
from maieutic.tasks.cqs.scoring import (
    AS_NAE,
    NAE,
    NAE_FALLBACK,
    InterventionResult,
    QuestionResult,
    check_unscored_rule,
    label_for,
    summarize,
)
from maieutic.wording import plural

RUN_FIGURES = ("useful_rate", "nae_rate")
"""Summary figures averaged over repeated runs, besides the overall score."""


def judge_question(
    qid: str | None, text: str, match: Match, *, intervention: Intervention, threshold: float | None
) -> QuestionResult:
    """Turn a matcher's verdict into the question's label."""
    ref = intervention.cqs[match.reference_index] if match.reference_index is not None else None
    if match.label is not None:
        label = match.label
    elif ref is None or match.similarity is None:
        label = NAE
    elif threshold is None:  # the matcher itself decided (an LLM matched this reference)
        label = ref.label or NAE
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
    subset without notice); with ``skip_unknown`` they are returned to be warned about
    (the benchmark script skips them silently).
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


class CQEvaluator(BaseEvaluator):
    """Scores submissions with a matcher and a threshold (None for LLM judges).

    Args:
        matcher: finds each question's best reference, or labels it (a judge).
        threshold: the similarity a match must exceed.
        extra_references: labelled questions of evaluated submissions added to the
            references; a submission's own questions (same intervention, same text)
            are left out when it is evaluated.
        unscored: how a question an LLM judge could not score enters the score:
            ``as-nae`` (the paper's rule: not Useful, in every denominator) or
            ``drop-and-rescale`` (left out, the rest scaled up).
        nae_fallback: a reference-free judge (a scorer's matcher) that labels the
            questions no reference matches (not_able_to_evaluate otherwise); each such
            question says so (``labelled_by``) and the summary keeps the figures by
            the references alone beside the ones with the judge.
    """

    spec: Spec

    def __init__(
        self,
        matcher: Matcher,
        threshold: float | None,
        extra_references: Sequence[LabelledSubmission] = (),
        *,
        unscored: str = AS_NAE,
        nae_fallback: Matcher | None = None,
    ) -> None:
        self.matcher = matcher
        self.nae_fallback = nae_fallback
        self.threshold = threshold
        self.extra_references = list(extra_references)
        self.unscored = check_unscored_rule(unscored)
        # replaced by the registry's record when built through it
        self.spec = Spec(
            kind="evaluator", task="cqs", name=matcher.name, args={"threshold": threshold}
        )
        # what ``prepare`` found for the run under way: each submission's unknown ids
        # (by object), and the signature shared when there are no extra references
        self._unknown: dict[int, list[str]] = {}
        self._shared: Signature | None = None

    @property
    def reference_flags(self) -> list[Flag]:
        """What the extra references hold that is read as the benchmark reads it but
        flagged (``--strict`` refuses it before any model work)."""
        return [f for extra in self.extra_references for f in extra.flags]

    @property
    def warnings(self) -> list[str]:
        """What the matcher, and the NAE fallback's judge, warned about."""
        own = list(getattr(self.matcher, "warnings", []))
        judge = getattr(self.nae_fallback, "warnings", [])
        return own + [f"--nae-fallback: {w}" for w in judge]

    @property
    def failures(self) -> list[str]:
        """Model calls that failed for good (their questions are unscored)."""
        return list(getattr(self.matcher, "failures", []))

    def signature(self, dataset: CQDataset, extra: dict[str, Any] | None = None) -> Signature:
        """The signature of results made against ``dataset``."""
        fields = dict(self.matcher.signature_fields())
        if getattr(self.matcher, "may_leave_unscored", False):
            fields["unscored"] = self.unscored  # the same replies, another score
        if self.nae_fallback is not None:  # the same matches, other labels
            judge = dict(self.nae_fallback.signature_fields())
            fields["nae_fallback"] = f"scorer:{judge['scorer']}@{judge['scorer_threshold']:.4f}"
        return Signature(
            task="cqs",
            evaluator=self.spec.name,
            model=fields.pop("model", None),  # type: ignore[arg-type]
            backend=fields.pop("backend", None),  # type: ignore[arg-type]
            threshold=self.threshold,
            dataset=dataset.fingerprint(),
            n_references=dataset.n_references,
            extra={**fields, **(extra or {})},
        )

    def prepare(
        self, reference: CQDataset, submissions: Sequence[Submission], *, skip_unknown: bool
    ) -> None:
        """Check every id before any model work starts. Without extra references all
        texts of all submissions go to the matcher at once, so each distinct text is
        encoded once, in full batches."""
        self._unknown = {
            id(s): check_ids(reference, s, skip_unknown=skip_unknown) for s in submissions
        }
        if not self.extra_references:
            self.matcher.prepare(_work(reference, submissions))
            # fingerprinting hashes every reference: once per run
            self._shared = self.signature(reference)

    def evaluate_one(self, reference: CQDataset, submission: Submission) -> EvalResult:
        """One submission's result; with extra references, it is scored against the
        references without its own questions."""
        if not self.extra_references:
            return self._one(
                reference, submission, self._unknown[id(submission)], signature=self._shared
            )
        references, n_left_out = with_extra_references(
            reference, self.extra_references, leave_out=submission
        )
        extra = {"extra_refs": references.n_references - reference.n_references}
        extra["left_out"] = n_left_out
        self.matcher.prepare(_work(references, [submission]))
        signature = self.signature(references, extra)
        return self._one(references, submission, self._unknown[id(submission)], signature=signature)

    def _one(
        self,
        dataset: CQDataset,
        submission: Submission,
        unknown: list[str],
        *,
        signature: Signature,
    ) -> EvalResult:
        results = []
        flags_by_id: dict[str | None, list[str]] = {}
        for flag in submission.flags:
            flags_by_id.setdefault(flag.item, []).append(flag.message)
        for key, entry in submission.entries.items():
            if key in unknown:
                continue
            intervention = dataset.interventions[key]
            flags = flags_by_id.get(key, [])
            if entry.cqs is None:
                results.append(
                    InterventionResult(
                        intervention_id=key,
                        questions=None,
                        flags=flags,
                        unscored_rule=self.unscored,
                    )
                )
                continue
            texts = [q.cq for q in entry.cqs]
            matches = self.matcher.match(intervention, texts) if texts else []
            questions = [
                judge_question(q.id, q.cq, m, intervention=intervention, threshold=self.threshold)
                for q, m in zip(entry.cqs, matches, strict=True)
            ]
            if self.nae_fallback is not None:
                fall_back(self.nae_fallback, intervention, questions)
            for question in questions:  # a flag beside the label, never part of the score
                flaws = check_question(question.cq, intervention.intervention)
                question.form_flaws = [str(f) for f in flaws]
            results.append(
                InterventionResult(
                    intervention_id=key,
                    questions=questions,
                    flags=flags,
                    unscored_rule=self.unscored,
                )
            )
        return _finish(
            dataset, submission, signature, spec=self.spec, results=results, unknown=unknown
        )


def fall_back(judge: Matcher, intervention: Intervention, questions: list[QuestionResult]) -> None:
    """Label with ``judge`` the questions no reference matched (not_able_to_evaluate),
    each marked ``labelled_by`` the fallback; the others keep their reference's label."""
    unmatched = [q for q in questions if q.label == NAE]
    if not unmatched:
        return
    for question, verdict in zip(
        unmatched, judge.match(intervention, [q.cq for q in unmatched]), strict=True
    ):
        question.label = verdict.label or NAE
        question.labelled_by = NAE_FALLBACK
        question.note = f"no reference matched; the judge's {verdict.note}"


def _work(dataset: CQDataset, submissions: Sequence[Submission]):
    return [
        (dataset.interventions[key], [q.cq for q in entry.cqs])
        for submission in submissions
        for key, entry in submission.entries.items()
        if key in dataset.interventions and entry.cqs
    ]


def _finish(
    dataset: CQDataset,
    submission: Submission,
    signature: Signature,
    *,
    spec: Spec,
    results: list[InterventionResult],
    unknown: list[str],
) -> EvalResult:
    rule = results[0].unscored_rule if results else AS_NAE
    summary = summarize(results, rule)
    summary["breakdown"] = breakdown(dataset, results)
    not_submitted = [k for k in dataset.interventions if k not in submission.entries]
    summary["n_unknown_skipped"] = len(unknown)
    summary["n_not_submitted"] = len(not_submitted)
    warnings = [f.short for f in submission.flags]
    warnings += [f"references: {f}" for f in dataset.flags]
    if unknown:
        warnings.append(f"skipped {len(unknown)} id(s) not in the references: {unknown[:5]}")
    if not_submitted:
        warnings.append(
            f"{len(not_submitted)} reference intervention(s) absent from the submission "
            "are not counted in the score (as in the benchmark script)"
        )
    if summary["n_unscored"]:
        how = (
            "counted as not_able_to_evaluate: not Useful, in every denominator (the paper's "
            "rule; --unscored drop-and-rescale leaves them out instead)"
            if rule == AS_NAE
            else "left out of the score's denominators, the rest scaled up "
            "(--unscored drop-and-rescale)"
        )
        warnings.append(
            f"{plural(summary['n_unscored'], 'question')} unscored (the judge's reply failed "
            f"or could not be parsed): {how}"
        )
    return EvalResult(
        task="cqs",
        submission=submission.name,
        source=submission.source,
        signature=signature,
        evaluator=spec,
        score=summary["overall"],
        summary=summary,
        items=results,
        flags=[*submission.flags, *dataset.flags],
        warnings=warnings,
        n_unscored=summary["n_unscored"],
    )


def official_layout(result: EvalResult) -> dict[str, Any]:
    """Per-question labels in the benchmark script's output layout.

    ``{id: {"intervention_id", "cqs": [{"id", "cq", "label", ...}] | "Missing CQs"}}``;
    maieutic adds ``best_reference_id`` and ``similarity`` to each question and
    ``score``, ``n_unscored`` and ``flags`` to each intervention, which readers of the
    official layout ignore. Questions a judge left unscored are labelled
    not_able_to_evaluate with ``"unscored": true`` under the default rule, and
    ``unscored`` under ``drop-and-rescale``.
    """
    records = {r["intervention_id"]: copy.deepcopy(r) for r in result.records()}
    if result.signature.extra.get("unscored", AS_NAE) == AS_NAE:
        # the benchmark script's readers know four labels: a question the judge could
        # not score is the paper's not_able_to_evaluate, marked as unscored beside it
        for record in records.values():
            for question in record["cqs"] if isinstance(record["cqs"], list) else ():
                if question["label"] == UNSCORED:
                    question["label"], question["unscored"] = NAE, True
    return records
