"""A learned scorer as a reference-free critical-questions evaluator: each question is
labelled Useful when its predicted P(Useful | intervention, question) reaches the
threshold stored with the scorer, and Unhelpful otherwise (the scorer tells Useful
from the rest; it does not separate Unhelpful from Invalid). The probability is kept
as the question's similarity, so results show how sure the scorer was."""

from __future__ import annotations

from collections.abc import Sequence

from maieutic.embed.store import EmbeddingStore
from maieutic.scorers.model import LearnedScorer
from maieutic.tasks.cqs.data import Intervention
from maieutic.tasks.cqs.matchers import Match, WorkItem

REST = "Unhelpful"


class ScorerMatcher:
    """Labels questions with a learned scorer (see the module docstring)."""

    uses_threshold = False
    name = "scorer"

    def __init__(self, scorer: LearnedScorer, encoder, store: EmbeddingStore | None) -> None:
        self.scorer = scorer
        self.encoder = encoder
        self.store = store
        self._warnings: list[str] = []
        self._cut = 0
        """Questions longer than the encoder reads (judged on their first part)."""
        self._seen: set[str] = set()
        """Texts (hashes) scored here that were in the scorer's training data."""
        if scorer.manifest.get("training", {}).get("examples") == "templates":
            self._warnings.append(
                "this scorer learned from template candidates (train scorer --examples "
                "templates): its labels predict a match with a Useful reference, not "
                "people's labels; evaluate with a scorer trained on references"
            )
        self._probability: dict[tuple[str, str], float] = {}

    def prepare(self, items: Sequence[WorkItem]) -> None:
        """Score every (intervention, question) pair at once (each text encoded once)."""
        pairs = [
            (intervention, q)
            for intervention, questions in items
            for q in questions
            if (intervention.intervention_id, q) not in self._probability
        ]
        if not pairs:
            return
        contexts = [i.intervention for i, _ in pairs]
        schemes = [i.schemes[0] if i.schemes else "" for i, _ in pairs]
        questions = [q for _, q in pairs]
        scores = self.scorer.score(
            self.encoder, contexts, questions, schemes=schemes, store=self.store
        )
        for (intervention, q), p in zip(pairs, scores, strict=True):
            self._probability[(intervention.intervention_id, q)] = float(p)
        texts = {i.intervention for i, _ in pairs}
        self._seen |= {text for text in texts if self.scorer.seen([text])}
        over_limit = getattr(self.encoder, "over_limit", None)
        self._cut += over_limit(list(dict.fromkeys(questions))) if over_limit else 0

    @property
    def warnings(self) -> list[str]:
        """What the scorer's use here warns about (said once, however many calls)."""
        out = list(self._warnings)
        if self._cut:
            limit = self.encoder.reading_limit()
            out.append(
                f"{self._cut} question(s) longer than the encoder reads ({limit} word "
                f"pieces): judged on their first {limit}"
            )
        if self._seen:
            out.append(
                f"{len(self._seen)} intervention text(s) were in the scorer's training "
                "data: its labels there are not a fair evaluation"
            )
        return out

    def match(self, intervention: Intervention, questions: Sequence[str]) -> list[Match]:
        """The label of each question from its probability."""
        self.prepare([(intervention, list(questions))])
        out = []
        for q in questions:
            p = self._probability[(intervention.intervention_id, q)]
            label = self.scorer.positive if p >= self.scorer.threshold else REST
            out.append(
                Match(
                    reference_index=None,
                    similarity=p,
                    label=label,
                    note=f"P({self.scorer.positive}) = {p:.3f}",
                )
            )
        return out

    def signature_fields(self) -> dict[str, object]:
        """The encoder and the scorer's identity."""
        return {"model": self.encoder.identity, **self.scorer.signature_fields()}
