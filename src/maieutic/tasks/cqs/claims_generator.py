"""The default model-free generator: questions about what the text actually claims.

Each intervention is read with a syntactic parser (:mod:`maieutic.language.claims`):
its clauses are restated in full and tagged with the kind of claim they make. Every
framing that fits a claim (:mod:`maieutic.tasks.cqs.framings`) gives a candidate
question — over-generation — and three are selected by a score that values

- usefulness: how likely people are to challenge that claim of this text, times how
  often people found questions in that framing useful (both learned from the
  benchmark's labelled references, :mod:`maieutic.tasks.cqs.claim_ranker`);
- well-formedness: a candidate the check of :mod:`maieutic.language.wellformed`
  flags is never chosen, and a very long one is less likely to be;
- variety: never two questions about the same claim in the same framing, never the
  same wording twice, a second question about a claim or in a framing family only at
  a discount.

A text with fewer than three complete claims gets fewer questions and a note saying
so; nothing is padded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from maieutic.generate.protocol import GenerationRun
from maieutic.language.claims import Reading, read_claims
from maieutic.language.stance import states_facts
from maieutic.language.wellformed import check_question
from maieutic.scorers.model import LearnedScorer
from maieutic.signature import Signature
from maieutic.tasks.cqs.candidate_filter import (
    FACTS,
    NOTHING,
    REPORTED,
    CandidateFilter,
    abstention,
    choose,
)
from maieutic.tasks.cqs.claim_ranker import ClaimRanker, builtin_ranker
from maieutic.tasks.cqs.data import EXPECTED_QUESTIONS, CQDataset, Intervention
from maieutic.tasks.cqs.framings import Candidate, candidates
from maieutic.tasks.cqs.outcomes import InterventionGenerator, ItemOutcome, outcome_notes
from maieutic.wording import plural

SAME_CLAIM = 0.2
"""Score kept by a second question about a claim already asked about."""
SAME_FRAMING = 0.6
"""Score kept by a second question in a framing already used."""
ARGUMENT_WEIGHT = {"inference": 1.4, "concluded": 1.3, "premise": 1.1, "answered": 0.7}
"""Where a claim stands in the argument, as a rule rather than learned (people's
references do not teach it: see docs/claims.md): a critical question tests the link
from a reason to what it supports, then the conclusion, then the reason; a claim of the
message a reply answers is asked about only after the speaker's own."""
LONG_QUESTION_WORDS = 38
KEY_PHRASE_SCORE = 0.15
"""Usefulness given to a question of definition about a key phrase, below nearly every
claim's (claims score 0.2-0.8): asked when the claims give fewer than three."""
"""Longer questions are hard to take in at once: their score is halved."""


@dataclass(frozen=True)
class Scored:
    """A candidate with its selection score and any flaw found."""

    candidate: Candidate
    score: float
    flaws: tuple[str, ...]


def argument_weight(claim) -> float:
    """The weight of a claim's place in the argument (``ARGUMENT_WEIGHT``)."""
    weight = 1.0
    if claim.kind == "inference":
        weight *= ARGUMENT_WEIGHT["inference"]
    for role in ("concluded", "premise"):
        if claim.features.get(role):
            weight *= ARGUMENT_WEIGHT[role]
            break
    if claim.answered:
        weight *= ARGUMENT_WEIGHT["answered"]
    return weight


def score_candidates(
    reading: Reading, pool: list[Candidate], ranker: ClaimRanker, *, text: str
) -> list[Scored]:
    """Every candidate scored (usefulness × framing prior, long ones halved) and checked."""
    claim_scores = ranker.claim_scores(reading)
    out = []
    for cand in pool:
        # a key phrase of the text is no claim: its question is a fallback
        usefulness = float(claim_scores[cand.claim]) if cand.claim >= 0 else KEY_PHRASE_SCORE
        if cand.claim >= 0:
            usefulness *= argument_weight(reading.claims[cand.claim])
        score = usefulness * ranker.prior(cand.framing)
        if len(cand.question.split()) > LONG_QUESTION_WORDS:
            score *= 0.5
        flaws = tuple(str(f) for f in check_question(cand.question, text))
        out.append(Scored(cand, score, flaws))
    return out


def select(scored: list[Scored], k: int = EXPECTED_QUESTIONS) -> list[Scored]:
    """Up to ``k`` well-formed candidates, greedily by score with the variety rules; a
    text with too few claims for ``k`` then gets a third question about one claim, in a
    framing family not yet asked (a short argument is challenged from several sides)."""
    chosen = _select(scored, k, per_claim=2)
    if len(chosen) < k:
        chosen = _select(scored, k, per_claim=3, start=chosen)
    return chosen


def _select(
    scored: list[Scored], k: int, *, per_claim: int, start: list[Scored] | None = None
) -> list[Scored]:
    usable = [s for s in scored if not s.flaws]
    chosen: list[Scored] = list(start or [])
    while len(chosen) < k:
        best, best_value = None, 0.0
        for item in usable:
            if item in chosen:
                continue
            cand = item.candidate
            if any(
                c.candidate.claim == cand.claim and c.candidate.framing == cand.framing
                for c in chosen
            ):
                continue
            if cand.generic and any(c.candidate.generic for c in chosen):
                continue
            if any(c.candidate.wording == cand.wording for c in chosen):
                continue  # a family's second question uses another of its wordings
            if sum(c.candidate.claim == cand.claim for c in chosen) >= per_claim:
                continue
            if per_claim > 2 and any(c.candidate.framing == cand.framing for c in chosen):
                continue  # the third question about a claim asks something new
            value = item.score
            if any(c.candidate.claim == cand.claim for c in chosen):
                value *= SAME_CLAIM
            if any(c.candidate.framing == cand.framing for c in chosen):
                value *= SAME_FRAMING
            if value > best_value:
                best, best_value = item, value
        if best is None:
            break
        chosen.append(best)
    return chosen


@dataclass(kw_only=True)
class ClaimQuestions:
    """What the generator found for one text."""

    questions: list[str]
    candidates: list[Scored]
    reading: Reading
    note: str | None = None


class ClaimsCQGenerator(InterventionGenerator):
    """Model-free: questions about the text's own claims, chosen for people (the
    generator is deterministic: every run gives the same questions)."""

    def __init__(
        self,
        ranker: ClaimRanker | None = None,
        judge: LearnedScorer | None = None,
        candidate_filter: CandidateFilter | None = None,
    ):
        self.ranker = ranker or builtin_ranker()
        self.judge = judge
        """A usefulness judge whose P(Useful) multiplies each candidate's score before
        the final choice (None: the generator's own scores alone)."""
        self.candidate_filter = candidate_filter
        """The precision filter that makes the final choice and abstains below its
        threshold (``maieutic.tasks.cqs.candidate_filter``); None: the rules choose."""

    def _judged(self, scored: list[Scored], text: str) -> list[Scored]:
        """``scored`` with each score multiplied by the judge's P(Useful)."""
        if self.judge is None or not scored:
            return scored
        from maieutic.embed.encoder import shared_encoder
        from maieutic.embed.store import EmbeddingStore

        model = self.judge.manifest["features"].get("encoder_model") or None
        encoder = shared_encoder(model) if model else shared_encoder()
        questions = [s.candidate.question for s in scored]
        p = self.judge.score(
            encoder, [text] * len(questions), questions, schemes=None, store=EmbeddingStore()
        )
        return [
            Scored(s.candidate, s.score * float(q), s.flaws) for s, q in zip(scored, p, strict=True)
        ]

    def questions_for(self, text: str, k: int = EXPECTED_QUESTIONS) -> ClaimQuestions:
        """Up to ``k`` questions about ``text``, with every scored candidate."""
        reading = read_claims(text)
        scored = score_candidates(reading, candidates(reading), self.ranker, text=text)
        if scored and states_facts(text):  # its questions would ask for proof of facts
            return ClaimQuestions(questions=[], candidates=scored, reading=reading, note=FACTS)
        if self.candidate_filter is not None:
            return self._filtered(reading, scored, text, k=k)
        scored = self._judged(scored, text)
        chosen = select(scored, k)
        note = None
        if len(chosen) < k:
            found = (
                "no complete claim"
                if not reading.claims
                else (f"only {plural(len(reading.claims), 'complete claim')}")
            )
            asked = plural(len(chosen), "question")
            note = f"{asked} instead of {k}: the text has {found} to challenge"
        return ClaimQuestions(
            questions=[s.candidate.question for s in chosen],
            candidates=scored,
            reading=reading,
            note=note,
        )

    def _filtered(self, reading: Reading, scored: list[Scored], text: str, *, k: int):
        """The filter's choice, each candidate's score its P(Useful) (times the judge's)."""
        claim_scores = self.ranker.claim_scores(reading)
        p = self.candidate_filter.probabilities(
            reading, text, scored, claim_scores=claim_scores, prior=self.ranker.prior
        )
        scored = [Scored(s.candidate, float(q), s.flaws) for s, q in zip(scored, p, strict=True)]
        scored = self._judged(scored, text)
        threshold = self.candidate_filter.threshold
        scores = np.array([s.score for s in scored])
        chosen = choose(scored, scores, threshold, k=k)
        note = None
        if not chosen:
            found = "no complete claim" if not reading.claims else "no claim a question fits"
            note = (
                abstention(reading, text, scored, p=p, threshold=threshold)
                if scored
                else f"the text has {found} to challenge"
            )
            if note in (NOTHING, REPORTED):
                # a text the rules can ask about is never left empty (issue 59: the
                # questions the threshold took away were rated Useful 0.23, no worse than
                # nothing): below the threshold the filter only orders them
                chosen = choose(scored, scores, 0.0, k=k)
                note = f"{note}: the filter's best questions all the same, below its threshold"
        elif len(chosen) < k:
            asked = plural(len(chosen), "question")
            note = f"{asked} instead of {k}: no other claim here is contested enough to question"
        questions = [scored[i].candidate.question for i in chosen]
        return ClaimQuestions(questions=questions, candidates=scored, reading=reading, note=note)

    def outcome(self, key: str, item: Intervention, *, run_index: int) -> ItemOutcome:
        """The questions for one intervention, every candidate kept beside them."""
        found = self.questions_for(item.intervention)
        candidates = [s.candidate.question for s in found.candidates]
        return ItemOutcome(
            intervention_id=key, questions=found.questions, candidates=candidates, note=found.note
        )

    def finish(self, dataset: CQDataset, outcomes: list[ItemOutcome]) -> GenerationRun:
        """The outcomes with their notes, and a warning for the interventions the claim
        ranker learned from."""
        _, warnings = self.whole_input or self.context_for(dataset)
        return GenerationRun(outcomes=outcomes, warnings=warnings, notes=outcome_notes(outcomes))

    whole_input: tuple[None, list[str]] | None = None
    """Set where the input is generated for in parts (the Ray engine): the warnings of
    the whole input, used for every part."""

    def context_for(self, dataset: Any) -> tuple[None, list[str]]:
        """No prompt context; the warning about texts the ranker learned from."""
        trained = sum(
            self.ranker.trained_on(i.intervention) for i in dataset.interventions.values()
        )
        return None, _trained_warning(trained)

    def signature(self, dataset: CQDataset) -> Signature:
        """Generator, ranker, parser and dataset."""
        from maieutic.language.syntax import pipeline_id

        return Signature(
            task="cqs",
            generator="claims",
            dataset=dataset.fingerprint(),
            extra={
                "ranker": self.ranker.identity,
                "parser": pipeline_id(),
                **(_judge_fields(self.judge) if self.judge is not None else {}),
                **(
                    {"filter": self.candidate_filter.identity}
                    if self.candidate_filter is not None
                    else {}
                ),
            },
        )


def _judge_fields(judge: LearnedScorer) -> dict[str, str]:
    # the recipe names the judge across machines; the build names these weights' bytes
    return {"judge": judge.recipe_identity(), "judge_build": judge.identity()}


def _trained_warning(trained: int) -> list[str]:
    if not trained:
        return []
    return [
        f"{trained} of these interventions were in the claim ranker's training data "
        "(the CQs dev split): scores on them flatter the generator"
    ]
