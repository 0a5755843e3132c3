"""Meta-evaluation: how well does an evaluator agree with the human labels?

Following "Benchmarking Critical Questions Generation" (sections 5.1 and 6.1,
appendix C): each human-labelled reference question is treated in turn as a
generated question and evaluated against the remaining references of its
intervention, leaving out the question itself and any other reference with the same
text. The evaluator's labels are compared with the human labels by Cohen's kappa,
with not_able_to_evaluate (NAE) kept as its own class and with NAE items dropped;
questions an LLM judge left unscored are counted, and read as NAE unless the evaluator
was built with ``unscored="drop-and-rescale"`` (then left out). The agreement report
and threshold sweep are the shared machinery of ``maieutic.evaluate``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from maieutic.errors import DataError
from maieutic.evaluate.agreement import UNSCORED, agreement_report, kappa_or_none
from maieutic.evaluate.result import EvalResult
from maieutic.evaluate.sweep import sweep_thresholds
from maieutic.run import evaluate
from maieutic.signature import Signature
from maieutic.stats import UndefinedStatistic, pearson, spearman
from maieutic.stats.grouped import RESAMPLES, SEED, grouped_kappa_interval
from maieutic.tasks.cqs.data import LABELS, CQDataset, Intervention, ReferenceQuestion, Submission
from maieutic.tasks.cqs.evaluate import CQEvaluator, fall_back, judge_question
from maieutic.tasks.cqs.scoring import AS_NAE, NAE, label_for

USEFUL = "Useful"

PREDICTED_LABELS = (*LABELS, NAE)


@dataclass(frozen=True, kw_only=True)
class LooItem:
    """One reference evaluated as if it were generated."""

    intervention_id: str
    reference_id: str
    text: str
    human: str
    predicted: str
    similarity: float | None
    matched_label: str | None
    """Label of the best-matching remaining reference (for re-thresholding)."""

    def to_json(self) -> dict[str, Any]:
        """The item as written to meta-evaluation files."""
        return asdict(self)


def leave_one_out_tasks(
    dataset: CQDataset, sample: int | None = None, seed: int = 0
) -> list[tuple[Intervention, ReferenceQuestion]]:
    """(intervention with the remaining references, held-out reference) pairs.

    ``sample`` draws that many held-out references with ``random.Random(seed)``.
    References whose intervention has no other distinct reference are skipped.
    """
    tasks = []
    for item in dataset.interventions.values():
        for ref in item.cqs:
            if ref.label is None:
                continue
            others = tuple(r for r in item.cqs if r.cq != ref.cq)
            if others:
                pseudo = Intervention(
                    intervention_id=item.intervention_id,
                    intervention=item.intervention,
                    dataset=item.dataset,
                    schemes=item.schemes,
                    cqs=others,
                )
                tasks.append((pseudo, ref))
    if sample is not None and sample < len(tasks):
        tasks = random.Random(seed).sample(tasks, sample)
    return tasks


def leave_one_out(
    dataset: CQDataset, evaluator: CQEvaluator, *, sample: int | None = None, seed: int = 0
) -> list[LooItem]:
    """Evaluate every (or a sample of) reference question(s) against the others.

    Raises ``DataError`` when no reference has another distinct, labelled reference in
    its intervention to be compared with.
    """
    tasks = leave_one_out_tasks(dataset, sample, seed)
    if not tasks:
        raise DataError(
            "nothing to meta-evaluate: no labelled reference has another distinct "
            "reference in its intervention",
            where=dataset.source,
        )
    matcher = evaluator.matcher
    matcher.prepare([(pseudo, [ref.cq]) for pseudo, ref in tasks])
    out = []
    for pseudo, ref in tasks:
        [m] = matcher.match(pseudo, [ref.cq])
        verdict = judge_question(
            ref.id, ref.cq, m, intervention=pseudo, threshold=evaluator.threshold
        )
        if evaluator.nae_fallback is not None:
            fall_back(evaluator.nae_fallback, pseudo, [verdict])
        matched = pseudo.cqs[m.reference_index].label if m.reference_index is not None else None
        out.append(
            LooItem(
                intervention_id=pseudo.intervention_id,
                reference_id=ref.id,
                text=ref.cq,
                human=ref.label or "",
                predicted=verdict.label,
                similarity=m.similarity,
                matched_label=matched,
            )
        )
    return out


def report(items: Sequence[LooItem], unscored: str = AS_NAE) -> dict[str, Any]:
    """Kappas (NAE kept and dropped), NAE rate, unscored count and confusion matrix.

    A question an LLM judge left unscored counts as NAE (``as-nae``, the paper's rule
    for a question its evaluator cannot judge), or is left out (``drop-and-rescale``);
    either way ``n_unscored`` counts it."""
    predicted = [i.predicted for i in items]
    if unscored == AS_NAE:
        predicted = as_nae(predicted)
    human = [i.human for i in items]
    result = agreement_report(human, predicted=predicted, labels=LABELS, abstain=NAE)
    result["n_unscored"] = sum(i.predicted == UNSCORED for i in items)
    result.update(useful_vs_rest(human, predicted=predicted))
    groups = [i.intervention_id for i in items]
    result["intervals"] = kappa_intervals(groups, human=human, predicted=predicted)
    return result


def kappa_intervals(
    groups: Sequence[str], *, human: Sequence[str], predicted: Sequence[str]
) -> dict[str, Any]:
    """95% percentile intervals of the two NAE-kept kappas (three classes with NAE, and
    Useful vs the rest), from resampling interventions with replacement: the questions
    of one intervention are not independent, and a figure from 16 interventions should
    say how far it could move on 16 others. A kappa undefined on most resamples has
    ``None`` bounds and says why."""
    kept = [(g, h, p) for g, h, p in zip(groups, human, predicted, strict=True) if p != UNSCORED]
    settings = {
        "kappa_nae_kept": kept,
        "kappa_useful_nae_kept": [
            (g, h == USEFUL, p == USEFUL) for g, h, p in zip(groups, human, predicted, strict=True)
        ],
    }
    found: dict[str, Any] = {
        "unit": "interventions",
        "n_units": len(set(groups)),
        "confidence": 0.95,
        "n_resamples": RESAMPLES,
        "seed": SEED,
    }
    for name, rows in settings.items():
        try:
            interval = grouped_kappa_interval(
                [h for _, h, _ in rows], [p for _, _, p in rows], groups=[g for g, _, _ in rows]
            )
            found[name] = {
                "low": interval.low,
                "high": interval.high,
                "n_undefined": interval.n_undefined,  # resamples left out (one class)
            }
        except UndefinedStatistic as exc:
            found[name] = {"low": None, "high": None, "undefined": str(exc)}
    return found


def useful_vs_rest(human: Sequence[str], *, predicted: Sequence[str]) -> dict[str, Any]:
    """κ of Useful against the rest in both settings: NAE kept (not Useful) and NAE
    dropped (the questions the evaluator could judge)."""
    useful = [h == USEFUL for h in human]
    said = [p == USEFUL for p in predicted]
    judged = [(h, s) for h, s, p in zip(useful, said, predicted, strict=True) if p != NAE]
    return {
        "kappa_useful_nae_kept": kappa_or_none(useful, said),
        "kappa_useful_nae_dropped": kappa_or_none([h for h, _ in judged], [s for _, s in judged])
        if judged
        else None,
    }


def as_nae(labels: Sequence[str]) -> list[str]:
    """``labels`` with every ``unscored`` read as not_able_to_evaluate."""
    return [NAE if label == UNSCORED else label for label in labels]


def sweep(items: Sequence[LooItem], thresholds: Sequence[float]) -> list[dict[str, Any]]:
    """The report's figures at each threshold (similarity evaluators only)."""

    def label_at(t: float) -> list[str]:
        return [
            label_for(i.similarity, i.matched_label, t) if i.similarity is not None else NAE
            for i in items
        ]

    return sweep_thresholds(
        [i.human for i in items], label_at, thresholds, labels=LABELS, abstain=NAE
    )


def meta_signature(
    dataset: CQDataset,
    evaluator: CQEvaluator,
    sample: int | None,
    *,
    seed: int,
    outputs: Any = None,
    curve: tuple[int, int] | None = None,
) -> Signature:
    """The signature of a meta-evaluation: leave-one-out over the references (with its
    sample), or on labelled ``outputs`` (their content hash; with the references
    curve's batch and draws)."""
    extra: dict[str, Any] = {}
    if sample:
        extra["sample"] = sample
    if outputs is not None:
        extra["outputs"] = outputs.fingerprint().removeprefix("sha256:")[:12]
    if curve is not None:
        extra["curve"] = f"batch{curve[0]}x{curve[1]}"
    signature = evaluator.signature(dataset, extra or None)
    seeded = bool(sample) or curve is not None
    return replace(signature, task="cqs-meta-eval", seed=seed if seeded else None)


def _question_labels(result: EvalResult) -> list[str]:
    return [
        q["label"]
        for item in result.records()
        if isinstance(item["cqs"], list)
        for q in item["cqs"]
    ]


PEOPLE = "people"
"""The name under which people's labels join a comparison of evaluators."""


def _people_scores(labels: Sequence[Sequence[str]], submissions: Sequence[Submission]):
    """Each submission's score by people's labels: Useful / 3 per intervention, averaged."""
    scores: list[float | None] = []
    for found, submission in zip(labels, submissions, strict=True):
        counts = [len(e.cqs or ()) for e in submission.entries.values()]
        useful, start = [], 0
        for n in counts:
            useful.append(sum(label == "Useful" for label in found[start : start + n]) / 3)
            start += n
        scores.append(sum(useful) / len(useful) if useful else None)
    return scores


def compare(
    dataset: CQDataset,
    submissions: Sequence[Submission],
    evaluators: dict[str, CQEvaluator],
    *,
    people: Sequence[Sequence[str]] | None = None,
    people_signature: str = "people's labels",
) -> dict[str, Any]:
    """Cohen's kappa between every pair of evaluators over the questions of
    ``submissions`` (NAE kept as a class; unscored questions read as NAE, or left out
    under an evaluator's ``drop-and-rescale``), and the Pearson and Spearman correlation
    of the system scores they give. ``people`` (each submission's labels given by people,
    in its questions' order) joins as one more rater named ``people``: its kappa with an
    evaluator is the paper's manual_labeling agreement, and its scores people's ranking."""
    labels: dict[str, list[str]] = {}
    overall: dict[str, list[float | None]] = {}
    signatures: dict[str, str] = {}
    if people is not None:
        labels[PEOPLE] = [label for found in people for label in found]
        overall[PEOPLE] = _people_scores(people, submissions)
        signatures[PEOPLE] = people_signature
    for name, evaluator in evaluators.items():
        results = evaluate(
            "cqs", dataset, submissions=submissions, evaluator=evaluator, skip_unknown=True
        )
        labels[name] = [label for r in results for label in _question_labels(r)]
        if evaluator.unscored == AS_NAE:
            labels[name] = as_nae(labels[name])
        overall[name] = [r.score for r in results]
        signatures[name] = str(results[0].signature) if results else ""
    names = list(labels)
    kappa: list[list[float | None]] = []
    for a in names:
        row = []
        for b in names:
            pairs = [
                (x, y) for x, y in zip(labels[a], labels[b], strict=True) if UNSCORED not in (x, y)
            ]
            row.append(kappa_or_none([x for x, _ in pairs], [y for _, y in pairs]))
        kappa.append(row)
    rankings = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            entry: dict[str, Any] = {"a": a, "b": b}
            for key, fn in (("pearson", pearson), ("spearman", spearman)):
                try:
                    entry[key] = fn(overall[a], overall[b]).r
                except UndefinedStatistic as exc:
                    entry[key] = str(exc)
            rankings.append(entry)
    return {
        "evaluators": names,
        "signatures": signatures,
        "kappa": kappa,
        "n_questions": len(next(iter(labels.values()), [])),
        "overall": overall,
        "submissions": [s.name for s in submissions],
        "rankings": rankings,
    }
