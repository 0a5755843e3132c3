"""Labelled (context, question) pairs for training a scorer.

Each task that trains scorers turns its labelled files into ``Examples`` (see
``maieutic.scorers.sources``): the context is the text a question is about, the group
the id of that text (grouped cross-validation never splits a group), the label the
class people gave the pair, and the ordinal value an ordered reading of that label or
rating (for Spearman)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(kw_only=True)
class Examples:
    """Pairs with their labels and groups."""

    contexts: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    schemes: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    """The class of each pair (two or more classes)."""
    ordinal: list[float] = field(default_factory=list)
    """An ordered value per pair for Spearman (a label's rank, or a mean rating)."""
    systems: list[str] = field(default_factory=list)
    positive: str = "positive"
    """The class whose probability is the score."""

    @property
    def target(self) -> np.ndarray:
        """True where the pair is of the positive class."""
        return np.array([label == self.positive for label in self.labels])

    def __len__(self) -> int:
        return len(self.questions)

    def add(
        self,
        context: str,
        *,
        question: str,
        label: str,
        ordinal: float,
        group: str,
        scheme: str = "",
        system: str = "",
    ) -> None:
        """Append one pair."""
        self.contexts.append(context)
        self.questions.append(question)
        self.schemes.append(scheme)
        self.groups.append(group)
        self.labels.append(label)
        self.ordinal.append(ordinal)
        self.systems.append(system)

    @property
    def from_systems(self) -> np.ndarray:
        """True where the pair is a system's output that people labelled."""
        return np.array([bool(system) for system in self.systems])

    def binary(self) -> Examples:
        """The same pairs labelled the positive class or ``other``."""
        out = self.subset(range(len(self)))
        out.labels = [label if label == self.positive else "other" for label in self.labels]
        return out

    def subset(self, rows) -> Examples:
        """The pairs at ``rows``, in that order."""
        pick = lambda values: [values[i] for i in rows]  # noqa: E731
        return Examples(
            contexts=pick(self.contexts),
            questions=pick(self.questions),
            schemes=pick(self.schemes),
            groups=pick(self.groups),
            labels=pick(self.labels),
            ordinal=pick(self.ordinal),
            systems=pick(self.systems),
            positive=self.positive,
        )
