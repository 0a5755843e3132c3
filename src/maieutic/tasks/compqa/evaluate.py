"""Scoring answer files on the CompQA rubric: rules, an LLM judge, or both merged.

Per answer: each criterion's score and where it came from (``rules`` or ``judge``),
the problems found (missing, out of range, unknown key, a judge that gave nothing
usable), and the total only when all 15 criteria are scored. Per file: the mean ±
standard deviation of the total and of each group over complete answers, the mean of
every criterion over the answers that have it, and how many answers are incomplete.

Tolerated input, scored and flagged (``--strict`` refuses it): an empty answer (the
rules score what they can — under 12 sentences, no choice, no named aspects — and the
judge is asked as the benchmark's judge would be), an answer longer than the judge is
shown (cut for the judge, whole for the rules), and an answer that does not look
English (the rules' English word lists are not applied: criterion 7 is left to a
judge; the structural rules still apply).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from maieutic.data.flags import Flag
from maieutic.evaluate.base import BaseEvaluator
from maieutic.evaluate.result import EvalResult
from maieutic.registry import Spec
from maieutic.signature import Signature
from maieutic.tasks.compqa.data import Answer, ScoreCheck, read_answers, rubric
from maieutic.tasks.compqa.judge import MAX_JUDGED_CHARS, JudgeInput, RubricJudge
from maieutic.tasks.compqa.rules import RuleJudge, merge
from maieutic.tasks.compqa.shots import choose_shots
from maieutic.tasks.compqa.signatures import (
    DATA_COVERS,
    TOTAL,
    question_set,
    question_set_fingerprint,
)

ENGLISH_WORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "and",
        "or",
        "of",
        "to",
        "in",
        "is",
        "are",
        "be",
        "than",
        "more",
        "better",
        "for",
        "with",
        "it",
        "this",
        "that",
        "on",
        "as",
        "not",
        "both",
        "which",
        "while",
    ]
)
LANGUAGE_DEPENDENT = (7,)
"""Criteria whose rule reads English words (choice and hedge words)."""


def looks_english(text: str) -> bool:
    """Whether a text of 20 words or more has at least 8% common English words (short
    texts count as English: too little to tell)."""
    words = re.findall(r"\w+", text.lower())
    if len(words) < 20:
        return True
    return sum(w in ENGLISH_WORDS for w in words) / len(words) >= 0.08


@dataclass(kw_only=True)
class AnswerFile:
    """One answer file under evaluation."""

    answers: list[Answer]
    source: str
    name: str
    flags: list[Flag] = field(default_factory=list)


def answer_flags(answers: Sequence[Answer], source: str) -> list[Flag]:
    """What the file holds that is scored but worth a warning."""
    flags = []
    for i, answer in enumerate(answers):
        at = f"[{i}].comparison"
        if not answer.comparison.strip():
            flags.append(
                Flag(
                    file=source,
                    at=at,
                    code="empty-answer",
                    message="the answer is empty",
                    item=str(i),
                )
            )
        elif len(answer.comparison) > MAX_JUDGED_CHARS:
            flags.append(
                Flag(
                    file=source,
                    at=at,
                    code="long-answer",
                    message=f"{len(answer.comparison)} characters; the judge sees the first "
                    f"{MAX_JUDGED_CHARS}",
                    item=str(i),
                )
            )
        if answer.comparison.strip() and not looks_english(answer.comparison):
            flags.append(
                Flag(
                    file=source,
                    at=at,
                    code="not-english",
                    message="does not look English; criterion 7 is left to a judge",
                    item=str(i),
                )
            )
    return flags


def load_answer_file(path: str | Path) -> AnswerFile:
    """An answer file in the released layout, with its flags."""
    answers = read_answers(path)
    return AnswerFile(
        answers=answers,
        source=str(path),
        name=Path(path).stem,
        flags=answer_flags(answers, str(path)),
    )


@dataclass(kw_only=True)
class AnswerScore:
    """One answer's rubric scores."""

    index: int
    answer: Answer
    scores: dict[int, float]
    sources: dict[int, str]
    problems: list[dict[str, str]]

    @property
    def complete(self) -> bool:
        """Whether all 15 criteria are scored."""
        return len(self.scores) == len(rubric())

    @property
    def total(self) -> float | None:
        """The 0–19 sum, only when complete."""
        return float(sum(self.scores.values())) if self.complete else None

    def to_json(self) -> dict[str, Any]:
        """The per-answer record of a results file (the released layout plus scores)."""
        a = self.answer
        return {
            "index": self.index,
            "object1": a.object1,
            "object2": a.object2,
            "aspect": a.aspect,
            "generator": a.generator,
            "scenario": a.scenario,
            "comparison": a.comparison,
            "score_dict": {str(k): v for k, v in sorted(self.scores.items())},
            "sources": {str(k): v for k, v in sorted(self.sources.items())},
            "score": self.total,
            "complete": self.complete,
            "problems": self.problems,
        }


def _mean_std(values: Sequence[float]) -> list[float] | None:
    if not values:
        return None
    std = float(np.std(values, ddof=1)) if len(values) > 1 else 0.0
    return [float(np.mean(values)), std]


def summarise(scored: Sequence[AnswerScore]) -> dict[str, Any]:
    """File-level figures (see the module docstring)."""
    criteria = rubric()
    complete = [s for s in scored if s.complete]
    per_criterion = {}
    for c in criteria:
        values = [s.scores[c] for s in scored if c in s.scores]
        per_criterion[f"C{c}"] = float(np.mean(values)) if values else None
    groups = {
        g: _mean_std(
            [sum(v for c, v in s.scores.items() if criteria[c].group == g) for s in complete]
        )
        for g in ("structure", "relevance", "quality")
    }
    return {
        "n_answers": len(scored),
        "n_complete": len(complete),
        "n_incomplete": len(scored) - len(complete),
        "total": _mean_std([s.total for s in complete]),
        "groups": groups,
        "criteria": per_criterion,
    }


class RubricEvaluator(BaseEvaluator):
    """Rules, a judge, or rules where they score and the judge elsewhere."""

    spec: Spec

    def __init__(
        self,
        rules: RuleJudge | None,
        judge: RubricJudge | None,
        name: str,
        *,
        shot_source: tuple[str, int, int] | None = None,
    ) -> None:
        self.rules = rules
        self.judge = judge
        self.name = name
        self.shot_source = shot_source
        """(file, how many, seed) of the few-shot examples, drawn when the evaluated
        answers are known (so none of them is an example)."""

    @property
    def failures(self) -> list[str]:
        """Judge calls that failed for good."""
        return self.judge.failures if self.judge else []

    def _rules(self, answer: Answer) -> dict[int, float | None]:
        if self.rules is None:
            return {}
        scores = self.rules.score(answer.comparison, object1=answer.object1, object2=answer.object2)
        if answer.comparison.strip() and not looks_english(answer.comparison):
            for criterion in LANGUAGE_DEPENDENT:
                scores[criterion] = None
        return scores

    def score_answers(self, answers: Sequence[Answer]) -> list[AnswerScore]:
        """Every answer scored (the judge's calls made concurrently)."""
        judged = (
            self.judge.score(
                [
                    JudgeInput(
                        object1=a.object1,
                        object2=a.object2,
                        aspect=a.aspect,
                        comparison=a.comparison,
                    )
                    for a in answers
                ]
            )
            if self.judge
            else [None] * len(answers)
        )
        out = []
        for i, (answer, verdict) in enumerate(zip(answers, judged, strict=True)):
            rules = self._rules(answer)
            check: ScoreCheck | None = verdict.check if verdict else None
            merged = merge(rules, check.scores if check else None)
            scores = {c: v for c, v in merged.items() if v is not None}
            sources = {c: "rules" if rules.get(c) is not None else "judge" for c in scores}
            problems = []
            if verdict and verdict.unscored_reason:
                problems.append(
                    {"at": "judge", "code": "unscored", "message": verdict.unscored_reason}
                )
            if check:
                problems += [
                    {"at": at, "code": code, "message": message}
                    for at, code, message in check.problems
                    if not (code == "missing" and int(at[1:]) in scores)
                ]
            problems += [
                {"at": f"C{c}", "code": "unscored", "message": "no rule decides it"}
                for c in rubric()
                if c not in scores and self.judge is None
            ]
            out.append(
                AnswerScore(
                    index=i, answer=answer, scores=scores, sources=sources, problems=problems
                )
            )
        return out

    def signature(self, answers: AnswerFile) -> Signature:
        """How the answers are scored: scorer, judge model and prompt, embedding model,
        and the hash of the question set and rubric (never of the answers themselves,
        so answers to the same questions scored the same way share a signature)."""
        extra: dict[str, Any] = {"total": TOTAL, "data_covers": DATA_COVERS}
        model = backend = None
        if self.judge:
            fields = self.judge.signature_fields()
            model, backend = fields.pop("model"), fields.pop("backend")
            extra.update(fields)
        if self.rules:
            encoder = self.rules.encoder
            extra["rules"] = "duplicates-by-embedding" if encoder else "text-only"
            if encoder is not None:
                extra["embedding"] = encoder.model_name
        questions = question_set(answers.answers)
        return Signature(
            task="compqa",
            evaluator=self.name,
            dataset=question_set_fingerprint(questions),
            n_references=len(questions),
            model=model,
            backend=backend,
            extra=extra,
        )

    def prepare(
        self, reference: Any, submissions: Sequence[AnswerFile], *, skip_unknown: bool = False
    ) -> None:
        """Draw the few-shot examples, none of them an answer under evaluation."""
        if self.judge and self.shot_source:
            path, n, seed = self.shot_source
            evaluated = [a.comparison for f in submissions for a in f.answers]
            self.judge.shots = choose_shots(path, n, seed=seed, evaluated=evaluated)

    def evaluate_one(self, reference: Any, submission: AnswerFile) -> EvalResult:
        """One answer file's result (the rubric needs no reference: ``reference`` is
        ignored)."""
        scored = self.score_answers(submission.answers)
        summary = summarise(scored)
        return EvalResult(
            task="compqa",
            submission=submission.name,
            source=submission.source,
            signature=self.signature(submission),
            evaluator=self.spec,
            score=summary["total"][0] if summary["total"] else None,
            summary=summary,
            items=scored,
            flags=submission.flags,
            n_unscored=summary["n_incomplete"],
        )


RubricScorer = RubricEvaluator
"""The old name (before "scorer" came to mean a learned model only); kept for imports."""
