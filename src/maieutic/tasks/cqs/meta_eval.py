"""Meta-evaluation: how well does an evaluator agree with the human labels?

Following "Benchmarking Critical Questions Generation" (sections 5.1 and 6.1,
appendix C): each human-labelled reference question is treated in turn as a
generated question and evaluated against the remaining references of its
intervention, leaving out the question itself and any other reference with the same
text. The evaluator's labels are compared with the human labels by Cohen's kappa,
with not_able_to_evaluate (NAE) kept as its own class and with NAE items dropped.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from maieutic.data.cqs import LABELS, CQDataset, Intervention, ReferenceQuestion
from maieutic.stats import UndefinedStatistic, cohen_kappa
from maieutic.tasks.cqs.evaluate import judge_question
from maieutic.tasks.cqs.matchers import Matcher
from maieutic.tasks.cqs.scoring import NAE, label_for

PREDICTED_LABELS = (*LABELS, NAE)


@dataclass(frozen=True)
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
                tasks.append(
                    (
                        Intervention(
                            item.intervention_id,
                            item.intervention,
                            item.dataset,
                            item.schemes,
                            others,
                        ),
                        ref,
                    )
                )
    if sample is not None and sample < len(tasks):
        tasks = random.Random(seed).sample(tasks, sample)
    return tasks


def leave_one_out(
    dataset: CQDataset,
    matcher: Matcher,
    threshold: float,
    *,
    sample: int | None = None,
    seed: int = 0,
) -> list[LooItem]:
    """Evaluate every (or a sample of) reference question(s) against the others."""
    tasks = leave_one_out_tasks(dataset, sample, seed)
    matcher.prepare([(pseudo, [ref.cq]) for pseudo, ref in tasks])
    out = []
    for pseudo, ref in tasks:
        [m] = matcher.match(pseudo, [ref.cq])
        verdict = judge_question(ref.id, ref.cq, m, pseudo, threshold)
        matched = pseudo.cqs[m.reference_index].label if m.reference_index is not None else None
        out.append(
            LooItem(
                pseudo.intervention_id,
                ref.id,
                ref.cq,
                ref.label,
                verdict.label,
                m.similarity,
                matched,
            )
        )
    return out


def _kappa(human: Sequence[str], predicted: Sequence[str]) -> float | None:
    try:
        return cohen_kappa(human, predicted)
    except UndefinedStatistic:
        return None


def agreement_report(human: Sequence[str], predicted: Sequence[str]) -> dict:
    """Kappa with NAE kept and dropped, NAE rate, and the confusion matrix."""
    kept = [(h, p) for h, p in zip(human, predicted, strict=True)]
    dropped = [(h, p) for h, p in kept if p != NAE]
    counts = Counter(kept)
    return {
        "n": len(kept),
        "kappa_nae_kept": _kappa([h for h, _ in kept], [p for _, p in kept]) if kept else None,
        "kappa_nae_dropped": (
            _kappa([h for h, _ in dropped], [p for _, p in dropped]) if dropped else None
        ),
        "n_labelled": len(dropped),
        "nae_rate": 1 - len(dropped) / len(kept) if kept else None,
        "confusion": {h: {p: counts.get((h, p), 0) for p in PREDICTED_LABELS} for h in LABELS},
    }


def sweep_thresholds(items: Sequence[LooItem], thresholds: Sequence[float]) -> list[dict]:
    """Kappas and NAE rate at each threshold (similarity evaluators only)."""
    rows = []
    for t in thresholds:
        predicted = [
            label_for(i.similarity, i.matched_label, t) if i.similarity is not None else NAE
            for i in items
        ]
        report = agreement_report([i.human for i in items], predicted)
        rows.append(
            {
                "threshold": round(float(t), 6),
                **{
                    k: report[k]
                    for k in ("kappa_nae_kept", "kappa_nae_dropped", "nae_rate", "n_labelled")
                },
            }
        )
    return rows


def choose_threshold(rows: Sequence[dict]) -> dict:
    """The threshold with the best balance of agreement and coverage (appendix C):
    the largest κ(NAE dropped) × (1 − NAE rate), i.e. agreement on the questions it
    labels weighted by the share of questions it labels. Ties go to the lower threshold."""

    def balance(row: dict) -> float:
        kappa = row["kappa_nae_dropped"]
        return -np.inf if kappa is None else kappa * (1 - row["nae_rate"])

    best = max(rows, key=lambda r: (balance(r), -r["threshold"]))
    return {**best, "balance": balance(best)}


def default_thresholds(evaluator: str) -> list[float]:
    """Cosine: 0.40–0.90 in steps of 0.05. chrF (0–100): 20–70 in steps of 5, since
    character overlap between paraphrases is low and its best balance lies below 40."""
    if evaluator == "chrf":
        return [20.0 + 5 * i for i in range(11)]
    return [round(0.40 + 0.05 * i, 4) for i in range(11)]
