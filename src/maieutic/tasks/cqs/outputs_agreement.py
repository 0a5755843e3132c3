"""An evaluator against people on system outputs, and how that agreement grows with
more references ("Benchmarking Critical Questions Generation", section 6.1, Figures
3 and 4).

Each generated question that people labelled is evaluated against the references of
its intervention, and the evaluator's labels are compared with the people's by
Cohen's kappa — with not_able_to_evaluate (NAE) kept as a class of its own, which
never agrees with a person's label (the paper's *manual_labeling* setting, where
people replaced every NAE with a label), and with NAE items dropped (agreement on the
questions the evaluator could judge).

The paper's *manual_reference* setting compares with people who matched each question
to a reference themselves and kept NAE where none fitted. The released file carries
people's final labels, not their matches, so that setting cannot be recomputed; NAE
dropped is the nearest figure the file allows, and is reported under its own name.

The references curve (Figure 4) adds the labelled outputs of *other* systems as
references, in batches: in each of ``draws`` seeded orders, an output's extra
references are the first k outputs of its intervention that are not from its own
submission (block of 3), for k = 0, batch, 2 × batch… up to all of them. The figures
at each k are the mean and standard deviation over the draws.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from maieutic.errors import DataError
from maieutic.evaluate.agreement import kappa_or_none
from maieutic.tasks.cqs.data import CQDataset
from maieutic.tasks.cqs.evaluate import CQEvaluator, fall_back, judge_question
from maieutic.tasks.cqs.labelled_outputs import LabelledOutput, LabelledOutputs
from maieutic.tasks.cqs.scoring import NAE


@dataclass(frozen=True, kw_only=True)
class OutputItem:
    """One labelled output as the evaluator labelled it."""

    intervention_id: str
    position: int
    block: int
    question_id: str
    text: str
    human: str
    predicted: str
    similarity: float | None
    matched_label: str | None
    """Label of the best-matching reference (for re-thresholding)."""
    best_reference_id: str | None
    reason: str | None = None
    released_label: str | None = None
    """The label as the file gives it, when it was read as another."""

    def to_json(self) -> dict[str, Any]:
        """The item as written to meta-evaluation files."""
        return asdict(self)


def judge_outputs(
    dataset: CQDataset, outputs: LabelledOutputs, evaluator: CQEvaluator
) -> list[OutputItem]:
    """Every labelled output labelled by ``evaluator`` against its intervention's
    references (batched: each distinct text is encoded, or asked about, once)."""
    grouped = outputs.by_intervention()
    matcher = evaluator.matcher
    matcher.prepare([(dataset.interventions[k], [o.cq for o in qs]) for k, qs in grouped.items()])
    items = []
    for key, questions in grouped.items():
        intervention = dataset.interventions[key]
        matches = matcher.match(intervention, [o.cq for o in questions])
        verdicts = [
            judge_question(
                output.id,
                output.cq,
                match,
                intervention=intervention,
                threshold=evaluator.threshold,
            )
            for output, match in zip(questions, matches, strict=True)
        ]
        if evaluator.nae_fallback is not None:
            fall_back(evaluator.nae_fallback, intervention, verdicts)
        for output, match, verdict in zip(questions, matches, verdicts, strict=True):
            matched = (
                intervention.cqs[match.reference_index].label
                if match.reference_index is not None
                else None
            )
            items.append(
                _item(output, verdict.label, match.similarity, matched=matched, verdict=verdict)
            )
    return items


def _item(output: LabelledOutput, predicted, similarity, *, matched, verdict) -> OutputItem:
    return OutputItem(
        intervention_id=output.intervention_id,
        position=output.position,
        block=output.block,
        question_id=output.id,
        text=output.cq,
        human=output.label,
        predicted=predicted,
        similarity=similarity,
        matched_label=matched,
        best_reference_id=verdict.best_reference_id,
        reason=output.reason,
        released_label=output.released_label,
    )


@dataclass(frozen=True, kw_only=True)
class _Table:
    """One intervention's outputs and their similarities to every candidate."""

    outputs: list[LabelledOutput]
    to_references: np.ndarray  # (outputs, references)
    to_outputs: np.ndarray  # (outputs, outputs)
    reference_labels: list[str]


def _tables(dataset: CQDataset, outputs: LabelledOutputs, evaluator: CQEvaluator) -> list[_Table]:
    similarities = getattr(evaluator.matcher, "similarities", None)
    if similarities is None or evaluator.threshold is None:
        raise DataError(
            f"the references curve compares similarities with a threshold: it needs sts or "
            f"chrf, not {evaluator.spec.name!r} (an LLM judge would need a model call per "
            "question, batch and draw)"
        )
    tables = []
    for key, questions in outputs.by_intervention().items():
        references = dataset.interventions[key].cqs
        texts = [o.cq for o in questions]
        tables.append(
            _Table(
                outputs=questions,
                to_references=np.asarray(
                    similarities(texts, candidates=[r.cq for r in references]), dtype=np.float64
                ),
                to_outputs=np.asarray(similarities(texts, candidates=texts), dtype=np.float64),
                reference_labels=[r.label or NAE for r in references],
            )
        )
    return tables


def _labels_at(table: _Table, order: list[int], k: int, *, threshold: float) -> list[str]:
    """Each output's label with the first ``k`` outputs of ``order`` outside its own
    block added to the references (ties go to the first candidate: references first,
    then extras in the order they were added)."""
    labels: list[str] = [""] * len(table.outputs)
    for block in sorted({o.block for o in table.outputs}):
        rows = [i for i, o in enumerate(table.outputs) if o.block == block]
        extras = [j for j in order if table.outputs[j].block != block][:k]
        candidates = np.concatenate(
            [table.to_references[rows], table.to_outputs[np.ix_(rows, extras)]], axis=1
        )
        names = table.reference_labels + [table.outputs[j].label for j in extras]
        best = candidates.argmax(axis=1)
        for i, (row, b) in enumerate(zip(rows, best, strict=True)):
            labels[row] = names[b] if candidates[i, b] > threshold else NAE
    return labels


def _figures(human: Sequence[str], *, predicted: Sequence[str]) -> dict[str, float | None]:
    kept = list(zip(human, predicted, strict=True))
    dropped = [(h, p) for h, p in kept if p != NAE]
    return {
        "kappa_nae_kept": kappa_or_none([h for h, _ in kept], [p for _, p in kept]),
        "kappa_nae_dropped": kappa_or_none([h for h, _ in dropped], [p for _, p in dropped])
        if dropped
        else None,
        "nae_rate": 1 - len(dropped) / len(kept) if kept else None,
    }


def _mean_sd(values: list[float | None]) -> tuple[float | None, float | None]:
    present = [v for v in values if v is not None]
    if not present:
        return None, None
    sd = statistics.stdev(present) if len(present) > 1 else 0.0
    return statistics.fmean(present), sd


def curve_steps(tables_max: int, *, batch: int) -> list[int]:
    """0, batch, 2 × batch… and the largest pool itself."""
    steps = list(range(0, tables_max + 1, batch))
    if steps[-1] != tables_max:
        steps.append(tables_max)
    return steps


def references_curve(
    dataset: CQDataset,
    outputs: LabelledOutputs,
    evaluator: CQEvaluator,
    *,
    batch: int = 5,
    draws: int = 5,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """Agreement with people and the NAE rate as other systems' labelled outputs are
    added as references in batches of ``batch`` (see the module docstring): one row
    per number of extra references, each figure's mean and standard deviation over
    ``draws`` seeded orders."""
    if batch < 1 or draws < 1:
        raise DataError("--batch and --draws must be at least 1")
    tables = _tables(dataset, outputs, evaluator)
    human = [o.label for t in tables for o in t.outputs]
    largest = max(
        sum(o.block != b for o in t.outputs) for t in tables for b in {o.block for o in t.outputs}
    )
    steps = curve_steps(largest, batch=batch)
    per_step: dict[int, list[dict[str, float | None]]] = {k: [] for k in steps}
    for draw in range(draws):
        orders = []
        for t in tables:
            key = t.outputs[0].intervention_id
            # a string seed is hashed with SHA-512: the same order on every platform
            order = list(range(len(t.outputs)))
            random.Random(f"{seed}|{draw}|{key}").shuffle(order)
            orders.append(order)
        for k in steps:
            predicted = [
                label
                for t, order in zip(tables, orders, strict=True)
                for label in _labels_at(t, order, k, threshold=float(evaluator.threshold))
            ]
            per_step[k].append(_figures(human, predicted=predicted))
    rows = []
    for k in steps:
        row: dict[str, Any] = {"extra_references": k}
        for name in ("kappa_nae_kept", "kappa_nae_dropped", "nae_rate"):
            row[name], row[f"{name}_sd"] = _mean_sd([f[name] for f in per_step[k]])
        rows.append(row)
    return rows
