"""Agreement of an LLM judge with people on the CompQA rubric (the paper's Table 2):
Krippendorff's alpha (interval) and Spearman's rho, "separately" (all criterion scores
of all answers concatenated) and on the final score (the sum of the 15 criteria).

The human side is either the averaged table (``human_evaluation_367.tsv``, columns
``C1``…``C15``) or the two annotators' files, averaged where both scored an answer and
taken from the one who did otherwise. Totals are always sums computed here. A judge
answer is found by generator, scenario, objects and aspect; when several answers share
them, by the most similar text (rapidfuzz ratio), and that is counted. Answers whose
judge scores are incomplete (broken key sets, out-of-range scores) are left out and
counted — never summed into a total.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rapidfuzz import fuzz

from maieutic.errors import DataError
from maieutic.tasks.compqa.data import Answer, generator_scenario
from maieutic.tasks.compqa.human_agreement import CRITERIA, TOTAL, ScoredPair
from maieutic.tasks.compqa.human_files import Row, read_tsv, row_scores

TEXT_PREFIX = 2000
"""Characters of the answers compared to tell apart answers on the same question."""
ABOVE_MAX = "human scores above their criterion's maximum (kept)"


@dataclass(frozen=True, kw_only=True)
class HumanScore:
    """People's scores for one answer (15 criteria, in order)."""

    filename: str
    object1: str
    object2: str
    aspect: str
    comparison: str
    scores: tuple[float, ...]
    notes: tuple[str, ...] = ()
    """Scores kept although above their criterion's maximum (flagged in the counts)."""


@dataclass(kw_only=True)
class MatchReport:
    """How the human and judge answers were matched."""

    pairs: list[ScoredPair] = field(default_factory=list)
    matched: list[tuple[HumanScore, Answer]] = field(default_factory=list)
    """Every human answer with the judged answer found for it (its text included)."""
    n_human: int = 0
    n_unmatched: int = 0
    n_ambiguous: int = 0
    n_judge_incomplete: int = 0
    n_human_above_max: int = 0
    """People's scores above their criterion's maximum, kept (the released files hold
    a few): shown in the counts, when there are any, as the flag."""

    def counts(self) -> dict[str, int]:
        """The counts, for reports."""
        counts = {
            "human answers": self.n_human,
            "matched": len(self.pairs),
            "no judge answer": self.n_unmatched,
            "told apart by text": self.n_ambiguous,
            "judge scores incomplete": self.n_judge_incomplete,
        }
        if self.n_human_above_max:
            counts[ABOVE_MAX] = self.n_human_above_max
        return counts


_ANSWER_COLUMNS = ("filename", "object1", "object2", "comparison")


def _human(row: Row, scores: tuple[float, ...], notes: tuple[str, ...]) -> HumanScore:
    cells = row.cells
    return HumanScore(
        filename=cells["filename"],
        object1=cells["object1"],
        object2=cells["object2"],
        aspect=cells.get("aspect") or "",
        comparison=cells["comparison"],
        scores=scores,
        notes=notes,
    )


def humans_from_table(path: str | Path) -> tuple[list[HumanScore], int]:
    """The averaged human table; partial rows are left out (their count is returned)."""
    columns = [f"C{i}" for i in range(1, 16)]
    out, partial = [], 0
    for row in read_tsv(path, [*_ANSWER_COLUMNS, *columns]):
        checked = row_scores(row, columns, path)
        if checked.scores is None:
            partial += 1
            continue
        out.append(_human(row, checked.scores, checked.notes))
    return out, partial


def humans_from_annotators(
    first: str | Path, *, second: str | Path
) -> tuple[list[HumanScore], int]:
    """Both annotators' files, row-aligned: the mean where both scored, else the one
    who did; rows neither scored fully are left out (their count is returned)."""
    required = [*_ANSWER_COLUMNS, *CRITERIA]
    a, b = read_tsv(first, required), read_tsv(second, required)
    if len(a) != len(b):
        raise DataError(f"{len(a)} rows vs {len(b)} rows in {second}", where=str(first))
    out, unscored = [], 0
    for ra, rb in zip(a, b, strict=True):
        if ra.cells["filename"] != rb.cells["filename"]:
            # the files must hold the same answers in the same order to be averaged
            raise DataError(
                f"filename {rb.cells['filename']!r}, the first file has "
                f"{ra.cells['filename']!r} on its line {ra.line} (rows do not line up)",
                where=rb.where(second),
            )
        ca, cb = row_scores(ra, CRITERIA, first), row_scores(rb, CRITERIA, second)
        sa, sb = ca.scores, cb.scores
        if sa and sb:
            scores = tuple((x + y) / 2 for x, y in zip(sa, sb, strict=True))
        elif sa or sb:
            scores = sa or sb
        else:
            unscored += 1
            continue
        notes = (ca.notes if sa else ()) + (cb.notes if sb else ())
        out.append(_human(ra, scores, notes))
    return out, unscored


def _key(generator: str, *, scenario: str, object1: str, object2: str, aspect: str) -> tuple:
    return (
        generator,
        scenario,
        object1.strip().lower(),
        object2.strip().lower(),
        aspect.strip().lower(),
    )


def match(humans: Sequence[HumanScore], judged: Sequence[Answer]) -> MatchReport:
    """Human and judge scores of the same answers, as ``ScoredPair``s (first = people)."""
    index: dict[tuple, list[Answer]] = {}
    for answer in judged:
        key = _key(
            answer.generator,
            scenario=answer.scenario,
            object1=answer.object1,
            object2=answer.object2,
            aspect=answer.aspect,
        )
        index.setdefault(key, []).append(answer)
    report = MatchReport(n_human=len(humans))
    report.n_human_above_max = sum(len(h.notes) for h in humans)
    for human in humans:
        generator, scenario = generator_scenario(human.filename)
        candidates = index.get(
            _key(
                generator,
                scenario=scenario,
                object1=human.object1,
                object2=human.object2,
                aspect=human.aspect,
            )
        )
        if not candidates:
            report.n_unmatched += 1
            continue
        if len(candidates) > 1:
            report.n_ambiguous += 1
        text = human.comparison[:TEXT_PREFIX]
        answer = max(candidates, key=lambda c: fuzz.ratio(c.comparison[:TEXT_PREFIX], text))
        report.matched.append((human, answer))
        if answer.check is None or not answer.check.complete:
            report.n_judge_incomplete += 1
            continue
        people = dict(zip(CRITERIA, human.scores, strict=True))
        judge = {c: answer.check.scores[i] for i, c in enumerate(CRITERIA, start=1)}
        people[TOTAL], judge[TOTAL] = sum(human.scores), answer.check.total
        report.pairs.append(ScoredPair(filename=human.filename, first=people, second=judge))
    return report


def _or_none(function, *args):
    from maieutic.stats import UndefinedStatistic

    try:
        return function(*args)
    except UndefinedStatistic:
        return None


def rules_agreement(report: MatchReport, rules) -> list[dict]:
    """Per criterion the rule-based judge judges: how often it scored, and its Krippendorff's
    alpha (interval) and Spearman's rho with people, on the matched answers' texts."""
    scored = [
        (human, rules.score(answer.comparison, object1=answer.object1, object2=answer.object2))
        for human, answer in report.matched
    ]
    return _per_criterion(scored, "rules_mean")


def judge_per_criterion(report: MatchReport) -> list[dict]:
    """Per criterion: the judge's valid scores (partial score sets included, each
    criterion on the answers where it is valid) against people's."""
    scored = [
        (human, dict(answer.check.scores)) for human, answer in report.matched if answer.check
    ]
    return _per_criterion(scored, "judge_mean")


def _per_criterion(scored, mean_name: str) -> list[dict]:
    from maieutic.stats import krippendorff_alpha, spearman

    people: dict[int, list[float]] = {}
    other: dict[int, list[float]] = {}
    for human, scores in scored:
        for criterion, value in scores.items():
            if value is not None:
                people.setdefault(criterion, []).append(human.scores[criterion - 1])
                other.setdefault(criterion, []).append(value)
    rules = other
    rows = []
    for criterion in sorted(people):
        x, y = people[criterion], rules[criterion]
        row = {
            "criterion": f"C{criterion}",
            "n": len(x),
            "human_mean": sum(x) / len(x),
            mean_name: sum(y) / len(y),
        }
        row["alpha_interval"] = _or_none(krippendorff_alpha, [x, y], "interval")
        rho = _or_none(spearman, x, y)
        row["spearman"] = rho.r if rho is not None else None  # None: one side constant
        rows.append(row)
    return rows
