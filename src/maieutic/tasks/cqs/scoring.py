"""Scoring rules of the critical-questions benchmark.

From "Benchmarking Critical Questions Generation" (section 5.1) and its evaluation
script: a generated question inherits the label of its most similar reference when
the similarity is strictly greater than the threshold, otherwise it is
``not_able_to_evaluate``. Each Useful question adds 1/3 to its intervention's score
(with no cap: a fourth Useful question adds another 1/3, as the script does); the
overall score is the mean over the evaluated interventions. "Missing CQs" scores 0
and counts as three ``missing_cqs`` labels.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from maieutic.data.cqs import LABELS
from maieutic.metrics.diversity import diversity_report

NAE = "not_able_to_evaluate"
MISSING = "missing_cqs"
ALL_LABELS: tuple[str, ...] = (*LABELS, NAE, MISSING)
EXPECTED_QUESTIONS = 3


def label_for(similarity: float, reference_label: str | None, threshold: float) -> str:
    """The inherited label, or NAE when the best match is not strictly above ``threshold``."""
    if similarity > threshold and reference_label is not None:
        return reference_label
    return NAE


@dataclass
class QuestionResult:
    """One generated question with the label it received and why."""

    id: str
    cq: str
    label: str
    best_reference_id: str | None
    similarity: float | None
    note: str | None = None


@dataclass
class InterventionResult:
    """The outcome for one intervention of a submission."""

    intervention_id: str
    questions: list[QuestionResult] | None  # None: the submission said "Missing CQs"
    flags: list[str] = field(default_factory=list)

    @property
    def n_useful(self) -> int:
        """Number of questions labelled Useful."""
        return sum(q.label == "Useful" for q in self.questions or [])

    @property
    def score(self) -> float:
        """Useful / 3, uncapped (the benchmark's rule)."""
        return self.n_useful / EXPECTED_QUESTIONS

    @property
    def labels(self) -> list[str]:
        """Per-question labels; three ``missing_cqs`` for a missing entry."""
        if self.questions is None:
            return [MISSING] * EXPECTED_QUESTIONS
        return [q.label for q in self.questions]


def _normalise(text: str) -> str:
    return " ".join(text.lower().split())


def quality_flags(questions: list[str]) -> list[str]:
    """Problems the benchmark script scores silently: wrong count and repeated questions."""
    flags = []
    if len(questions) != EXPECTED_QUESTIONS:
        flags.append(f"{len(questions)} questions (expected {EXPECTED_QUESTIONS})")
    counts = Counter(_normalise(q) for q in questions)
    repeats = sum(c - 1 for c in counts.values() if c > 1)
    if repeats:
        flags.append(f"{repeats} duplicate question(s)")
    return flags


def summarize(results: list[InterventionResult]) -> dict[str, object]:
    """Overall score, label and score distributions, NAE rate and diversity for one run."""
    labels = [label for r in results for label in r.labels]
    label_counts = Counter(labels)
    scores = [r.score for r in results]
    questions = [q for r in results for q in r.questions or []]
    n_questions = len(questions)
    n_nae = label_counts.get(NAE, 0)
    score_counts = Counter(str(Fraction(r.n_useful, EXPECTED_QUESTIONS)) for r in results)
    return {
        "overall": sum(scores) / len(scores) if scores else None,
        "n_interventions": len(results),
        "n_missing_cqs": sum(r.questions is None for r in results),
        "n_questions": n_questions,
        "useful_rate": label_counts.get("Useful", 0) / n_questions if n_questions else None,
        "nae_rate": n_nae / n_questions if n_questions else None,
        "labels": {label: label_counts.get(label, 0) for label in ALL_LABELS},
        "intervention_scores": dict(sorted(score_counts.items(), key=lambda kv: Fraction(kv[0]))),
        "n_flagged": sum(bool(r.flags) for r in results),
        "diversity": {
            "all": diversity_report([q.cq for q in questions]),
            "useful": diversity_report([q.cq for q in questions if q.label == "Useful"]),
        },
    }
