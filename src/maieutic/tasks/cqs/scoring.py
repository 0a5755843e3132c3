"""Scoring rules of the critical-questions benchmark.

From "Benchmarking Critical Questions Generation" (section 5.1) and its evaluation
script: a generated question inherits the label of its most similar reference when
the similarity is strictly greater than the threshold, otherwise it is
``not_able_to_evaluate``. Each Useful question adds 1/3 to its intervention's score
(with no cap: a fourth Useful question adds another 1/3, as the script does); the
overall score is the mean over the evaluated interventions. "Missing CQs" scores 0
and counts as three ``missing_cqs`` labels; an empty question list scores 0 and
adds no label (the script's behaviour).

An LLM judge may leave a question ``unscored`` (its reply failed or could not be
parsed). It keeps that label and is counted, and by default it is scored as the paper
scores a question its evaluator cannot judge (not_able_to_evaluate, "considered
not-useful", Table 3): it adds nothing to its intervention's Useful/3, stays in every
denominator and counts towards the NAE rate (``as-nae``). Leaving such questions out of
the denominators and scaling the rest up is a choice a user makes by name
(``drop-and-rescale``): the label rates then count scored questions only, an
intervention's score is its Useful share among its scored questions times (questions /
3), and an intervention with no scored question has no score and is left out of the
mean.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from maieutic.evaluate.agreement import UNSCORED
from maieutic.metrics.diversity import diversity_report
from maieutic.tasks.cqs.data import EXPECTED_QUESTIONS, LABELS, MISSING_CQS

NAE = "not_able_to_evaluate"
MISSING = "missing_cqs"
NAE_FALLBACK = "nae-fallback"
"""``labelled_by`` of a question no reference matched, labelled by a reference-free judge."""
ALL_LABELS: tuple[str, ...] = (*LABELS, NAE, MISSING, UNSCORED)

AS_NAE = "as-nae"
DROP_AND_RESCALE = "drop-and-rescale"
UNSCORED_RULES: tuple[str, ...] = (AS_NAE, DROP_AND_RESCALE)
"""How a question an LLM judge left unscored enters the score (the first is the
default: the paper's rule)."""


def check_unscored_rule(rule: str) -> str:
    """``rule`` if it is one of ``UNSCORED_RULES``; a usage error otherwise."""
    if rule not in UNSCORED_RULES:
        from maieutic.errors import DataError

        raise DataError(f"--unscored must be one of {', '.join(UNSCORED_RULES)}, not {rule!r}")
    return rule


def label_for(similarity: float, reference_label: str | None, threshold: float) -> str:
    """The inherited label, or NAE when the best match is not strictly above ``threshold``."""
    if similarity > threshold and reference_label is not None:
        return reference_label
    return NAE


@dataclass(kw_only=True)
class QuestionResult:
    """One generated question with the label it received and why."""

    id: str | None
    cq: str
    label: str
    best_reference_id: str | None
    similarity: float | None
    note: str | None = None
    form_flaws: list[str] | None = None
    """What the well-formedness check found (empty: well formed; None: not checked).
    A flag beside the label: it never changes the label or the score."""
    labelled_by: str | None = None
    """``nae-fallback`` when no reference matched and a reference-free judge gave the
    label (None: the label is the matched reference's, or the evaluator's own)."""

    @property
    def well_formed(self) -> bool | None:
        """Whether the question passed the well-formedness check (None: not checked)."""
        return None if self.form_flaws is None else not self.form_flaws

    def to_json(self) -> dict[str, Any]:
        """The question in the benchmark script's output layout, plus maieutic's fields."""
        out: dict[str, Any] = {"id": self.id, "cq": self.cq, "label": self.label}
        out["best_reference_id"] = self.best_reference_id
        out["similarity"] = self.similarity
        if self.note:
            out["note"] = self.note
        if self.labelled_by:
            out["labelled_by"] = self.labelled_by
        if self.form_flaws is not None:
            out["well_formed"] = not self.form_flaws
            if self.form_flaws:
                out["form_flaws"] = self.form_flaws
        return out


@dataclass(kw_only=True)
class InterventionResult:
    """The outcome for one intervention of a submission."""

    intervention_id: str
    questions: list[QuestionResult] | None  # None: the submission said "Missing CQs"
    flags: list[str] = field(default_factory=list)
    unscored_rule: str = AS_NAE
    """How unscored questions enter the score (``UNSCORED_RULES``)."""

    @property
    def n_useful(self) -> int:
        """Number of questions labelled Useful."""
        return sum(q.label == "Useful" for q in self.questions or [])

    @property
    def n_unscored(self) -> int:
        """Questions an LLM judge could not score."""
        return sum(q.label == UNSCORED for q in self.questions or [])

    @property
    def score(self) -> float | None:
        """Useful / 3, uncapped (the benchmark's rule); an unscored question is not
        Useful, or with ``drop-and-rescale`` is left out and the rest scaled up."""
        if self.questions is None:
            return 0.0
        n, unscored = len(self.questions), self.n_unscored
        if not unscored or self.unscored_rule == AS_NAE:
            return self.n_useful / EXPECTED_QUESTIONS
        if unscored == n:
            return None
        return self.n_useful / (n - unscored) * n / EXPECTED_QUESTIONS

    @property
    def labels(self) -> list[str]:
        """Per-question labels; three ``missing_cqs`` for a missing entry."""
        if self.questions is None:
            return [MISSING] * EXPECTED_QUESTIONS
        return [q.label for q in self.questions]

    def to_json(self) -> dict[str, Any]:
        """The intervention in the benchmark script's output layout, plus its score."""
        cqs: Any = MISSING_CQS if self.questions is None else [q.to_json() for q in self.questions]
        return {
            "intervention_id": self.intervention_id,
            "cqs": cqs,
            "score": self.score,
            "n_unscored": self.n_unscored,
            "flags": self.flags,
        }


def _well_formed_rate(questions: list[QuestionResult]) -> float | None:
    """Share of checked questions that are well formed (None when none was checked)."""
    checked = [q.well_formed for q in questions if q.well_formed is not None]
    return sum(checked) / len(checked) if checked else None


def _score_key(score: float) -> str:
    return str(Fraction(score).limit_denominator(EXPECTED_QUESTIONS * 100))


def _by_references(results: list[InterventionResult], n_labels: int) -> dict[str, Any] | None:
    """With an NAE fallback: how many labels the judge gave, and the figures the
    references alone give (each judged question back to not_able_to_evaluate)."""
    judged = [q for r in results for q in r.questions or [] if q.labelled_by == NAE_FALLBACK]
    if not judged:
        return None
    scores = [
        sum(q.label == "Useful" and q.labelled_by != NAE_FALLBACK for q in r.questions)
        / EXPECTED_QUESTIONS
        if r.questions is not None
        else 0.0
        for r in results
    ]
    useful = Counter(q.label for q in judged)
    return {
        "n_questions": len(judged),
        "labels": dict(sorted(useful.items())),
        "rate": len(judged) / n_labels if n_labels else None,
        "overall_by_references": sum(scores) / len(scores) if scores else None,
    }


def summarize(results: list[InterventionResult], unscored_rule: str = AS_NAE) -> dict[str, Any]:
    """Overall score, label and score distributions, rates and diversity for one run.

    The rates are shares of every label, as the benchmark script's results table counts
    them (the three missing_cqs of a "Missing CQs" included). Unscored questions count
    as not_able_to_evaluate (``as-nae``), or are left out (``drop-and-rescale``)."""
    label_counts = Counter(label for r in results for label in r.labels)
    scores = [r.score for r in results if r.score is not None]
    questions = [q for r in results for q in r.questions or []]
    n_unscored = label_counts.get(UNSCORED, 0)
    n_labels = sum(label_counts.values())
    if unscored_rule == AS_NAE:
        n_scored, n_nae = n_labels, label_counts.get(NAE, 0) + n_unscored
    else:
        n_scored, n_nae = n_labels - n_unscored, label_counts.get(NAE, 0)
    score_counts = Counter(_score_key(s) for s in scores)
    fallback = _by_references(results, n_scored)
    return {
        **({"nae_fallback": fallback} if fallback else {}),
        "overall": sum(scores) / len(scores) if scores else None,
        "n_interventions": len(results),
        "n_scored_interventions": len(scores),
        "n_missing_cqs": sum(r.questions is None for r in results),
        "n_questions": len(questions),
        "n_unscored": n_unscored,
        "useful_rate": label_counts.get("Useful", 0) / n_scored if n_scored else None,
        "nae_rate": n_nae / n_scored if n_scored else None,
        "labels": {label: label_counts.get(label, 0) for label in ALL_LABELS},
        "intervention_scores": dict(sorted(score_counts.items(), key=lambda kv: Fraction(kv[0]))),
        "n_flagged": sum(bool(r.flags) for r in results),
        "well_formed_rate": _well_formed_rate(questions),
        "diversity": {
            "all": diversity_report([q.cq for q in questions]),
            "useful": diversity_report([q.cq for q in questions if q.label == "Useful"]),
        },
    }
