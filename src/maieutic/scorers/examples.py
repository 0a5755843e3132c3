"""Labelled (context, question) pairs for training a scorer, from the labelled files
people made: a critical-questions dataset (Useful / Unhelpful / Invalid per reference
question; the context is the intervention, the group its id) or QGEval-style ratings
(mean answerability 1–3 per question; the context is the passage, the group its id;
answerable when the mean is at least 2.5)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from maieutic.tasks.cqs.data import CQDataset

USEFUL = "Useful"
ORDINAL = {"Invalid": 0.0, "Unhelpful": 1.0, "Useful": 2.0}
ANSWERABLE_FROM = 2.5
"""QGEval: a mean answerability rating at or above this counts as answerable (the
AURA meta-evaluation's line)."""


@dataclass
class Examples:
    """Pairs with their labels and groups."""

    contexts: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    schemes: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    """The class of each pair (three classes for critical questions, two for ratings)."""
    ordinal: list[float] = field(default_factory=list)
    """An ordered value per pair for Spearman (0–2 label rank, or the mean rating)."""
    systems: list[str] = field(default_factory=list)
    positive: str = USEFUL

    @property
    def target(self) -> np.ndarray:
        """True where the pair is of the positive class."""
        return np.array([label == self.positive for label in self.labels])

    def __len__(self) -> int:
        return len(self.questions)

    def subset(self, rows) -> Examples:
        """The pairs at ``rows``, in that order."""
        pick = lambda values: [values[i] for i in rows]  # noqa: E731
        return Examples(
            pick(self.contexts), pick(self.questions), pick(self.schemes), pick(self.groups),
            pick(self.labels), pick(self.ordinal), pick(self.systems), self.positive,
        )  # fmt: skip


def cqs_examples(dataset: CQDataset) -> Examples:
    """Every labelled reference question of ``dataset``."""
    out = Examples(positive=USEFUL)
    for item in dataset.interventions.values():
        for ref in item.cqs:
            if ref.label not in ORDINAL or not ref.cq.strip():
                continue
            out.contexts.append(item.intervention)
            out.questions.append(ref.cq)
            out.schemes.append(item.schemes[0] if item.schemes else "")
            out.groups.append(item.intervention_id)
            out.labels.append(ref.label)
            out.ordinal.append(ORDINAL[ref.label])
            out.systems.append("")
    return out


def qgeval_examples(instances: list[dict]) -> Examples:
    """Every rated question of QGEval-style ``instances``."""
    from maieutic.tasks.aura.qgeval import system_name

    out = Examples(positive="answerable")
    for n, item in enumerate(instances):
        for q in item["questions"]:
            rating = float(q["answerability"])
            out.contexts.append(item["passage"])
            out.questions.append(q["prediction"])
            out.schemes.append("")
            out.groups.append(str(item.get("id", n)))
            out.labels.append("answerable" if rating >= ANSWERABLE_FROM else "unanswerable")
            out.ordinal.append(rating)
            out.systems.append(system_name(str(q.get("source", "?"))))
    return out
