"""What CompQA's numbers are signed with.

A rubric score depends on the questions asked, the rubric, and how the rubric was
applied (rules, judge model, prompt, examples), never on which answers are scored: the
data hash of ``evaluate compqa`` covers the question set (the distinct (object1,
object2, aspect) triples, however many answers each has and in whatever order) and the
rubric, so two answer files to the same questions scored the same way share a
signature and their scores compare.

A table or an agreement figure is computed from scores: ``compqa table`` is signed by
the scored answers it read (their questions, texts and checked scores) and by what
made those scores; ``meta-eval compqa`` by the people's ratings (the reference) and
the judge's scored answers compared with them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from maieutic.data.files import read_bytes
from maieutic.signature import Signature
from maieutic.tasks.compqa import data
from maieutic.tasks.compqa.data import Answer

DATA_COVERS = "questions+rubric"
"""What the data hash of a rubric score covers (results files written before this
field existed hashed the answers instead)."""
TOTAL = "sum-of-criteria"
"""How totals are formed: always the sum of the 15 checked criteria."""


def _sha256(payload: Any) -> str:
    text = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def rubric_fingerprint() -> str:
    """A hash of the rubric as read: every criterion's group, maximum and wording."""
    return _sha256(
        [[c.id, c.group, c.max, c.description, list(c.points)] for c in data.rubric().values()]
    )


def question_set(answers: Iterable[Answer]) -> list[tuple[str, str, str]]:
    """The distinct questions answered, sorted (an absent aspect is "")."""
    return sorted({(a.object1, a.object2, a.aspect or "") for a in answers})


def question_set_fingerprint(questions: Sequence[tuple[str, str, str]]) -> str:
    """The data hash of a rubric score: the question set and the rubric."""
    return _sha256({"questions": [list(q) for q in questions], "rubric": rubric_fingerprint()})


def scores_fingerprint(answers: Iterable[Answer]) -> str:
    """A hash of scored answers in any order: question, generator, scenario, text and
    the checked scores (equal for a released judged file and a results file holding
    the same scores)."""
    rows = [
        [
            a.generator,
            a.scenario,
            a.object1,
            a.object2,
            a.aspect or "",
            a.comparison,
            None if a.check is None else a.check.to_json(),
        ]
        for a in answers
    ]
    return _sha256(sorted(json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows))


def files_fingerprint(paths: Iterable[str | Path]) -> str:
    """A hash of files' bytes, in the order given (people's rating files)."""
    digest = hashlib.sha256()
    for path in paths:
        content = read_bytes(path)
        digest.update(f"{len(content)}\n".encode())
        digest.update(content)
    return "sha256:" + digest.hexdigest()


def _short(fingerprint: str) -> str:
    return fingerprint[: len("sha256:") + 16]


def table_signature(answers: Sequence[Answer], scored_by: Iterable[str]) -> Signature:
    """The signature of ``compqa table``: the scored answers it read and what made
    their scores."""
    return Signature(
        task="compqa",
        evaluator="table-by-generator-scenario",
        dataset=scores_fingerprint(answers),
        n_references=len(answers),
        extra={"scores": ",".join(sorted(set(scored_by))), "total": TOTAL},
    )


def agreement_signature(
    humans: str,
    human_files: Sequence[str | Path],
    answers: Sequence[Answer],
    *,
    scored_by: Iterable[str],
    n_pairs: int,
) -> Signature:
    """The signature of ``meta-eval compqa``: the people's ratings (``humans``: table or
    annotators, and their files' hash as the data hash), the judge's scored answers
    (``judged``: their hash) and what made those scores."""
    return Signature(
        task="compqa",
        evaluator="judge-vs-people",
        dataset=files_fingerprint(human_files),
        n_references=n_pairs,
        extra={
            "humans": humans,
            "judged": _short(scores_fingerprint(answers)),
            "scores": ",".join(sorted(set(scored_by))),
            "total": TOTAL,
        },
    )


def breakdown_signature(
    judges: dict[str, Sequence[Answer]], scored_by: dict[str, str], by: str, *, rule: str
) -> Signature:
    """The signature of ``compqa breakdown``: every column's scored answers (one hash
    over all, each column's named), what made each column's scores, the breakdown and
    how its cells are averaged."""
    named = {name: scores_fingerprint(answers) for name, answers in judges.items()}
    return Signature(
        task="compqa",
        evaluator=f"breakdown-by-{by}",
        dataset=_sha256(named),
        n_references=sum(len(a) for a in judges.values()),
        extra={
            "columns": ",".join(f"{name}={scored_by[name]}" for name in judges),
            "average": rule,
            "total": TOTAL,
        },
    )


def extremes_signature(base: Signature, high: float, *, low: float, n_pairs: int) -> Signature:
    """The signature of ``compqa extremes``: the judge-vs-people signature of the same
    files with the bounds of "high" and "low" totals."""
    extra = {**base.extra, "high": f">={high:g}", "low": f"<={low:g}"}
    return Signature(
        task="compqa",
        evaluator="extreme-scores",
        dataset=base.dataset,
        n_references=n_pairs,
        extra=extra,
    )
