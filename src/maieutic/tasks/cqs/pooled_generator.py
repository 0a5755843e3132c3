"""The model route that never makes the questions worse: a language model's candidates
pooled with the claims generator's, the precision filter deciding.

The claims generator chooses its questions as it does offline (its own rules, which
rated better than the filter's choice on held-out texts: docs/claims.md). Each of the
model's candidates is then placed in the same frame as the claims candidates — the
claim of the text it restates (the one sharing the most content words, at least
``MIN_SHARED_WORDS``) and the framing whose wording it takes, if any — and scored by
the same filter (``maieutic.tasks.cqs.candidate_filter``). A model question takes a
slot only where it reaches the filter's threshold and, in a full set, scores higher than
the claims question it displaces. A question
the well-formedness check flags, one about no claim of the text, one repeating a
chosen question, and any question on a text the claims generator abstained on because
it states facts never does.

Why not the usefulness judge: on the 1,725 strictly rated development candidates it
ranks the Useful ones below the rest (ROC AUC 0.48, ``benchmarks/bench_model_route.py
--judge-auc``); the filter's cross-validated AUC there is 0.73.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from maieutic.generate.protocol import GenerationRun
from maieutic.language.claims import Reading
from maieutic.language.wellformed import check_question
from maieutic.language.word_lists import words
from maieutic.signature import Signature
from maieutic.tasks.cqs.candidate_features import FAMILIES
from maieutic.tasks.cqs.candidate_filter import FACTS, CandidateFilter
from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator, Scored
from maieutic.tasks.cqs.data import EXPECTED_QUESTIONS, CQDataset
from maieutic.tasks.cqs.framings import FRAMINGS, Candidate
from maieutic.tasks.cqs.generate import LLMCQGenerator
from maieutic.tasks.cqs.outcomes import ItemOutcome, outcome_notes

MIN_SHARED_WORDS = 2
"""Content words a model question must share with a claim to be about it."""
MODEL = "model"
"""The framing of a model question in none of the claims generator's framings."""
CLAIMS, FROM_MODEL = "claims", "model"

_WORD = re.compile(r"[a-z][a-z'-]+")
_FUNCTION_WORDS = words(
    """a, an, the, and, or, but, if, then, than, that, this, these, those, is, are, was,
    were, be, been, being, am, do, does, did, have, has, had, will, would, shall,
    should, can, could, may, might, must, of, in, on, at, to, for, from, by, with,
    about, as, into, over, under, not, no, it, its, they, them, their, he, him, his,
    she, her, we, us, our, you, your, i, me, my, what, which, who, whom, whose, why,
    how, when, where, there, here, so, such, very, more, most, some, any, all, each,
    every"""
)


_SLOTS = {"{modal}": "(?:would|can|could)"}
"""A slot that takes only a few words: a forecast asked back opens with its modal."""


def _framing_patterns() -> list[tuple[str, re.Pattern]]:
    """Each framing's wording as a pattern: its fixed words, anything for its slots."""
    out = []
    for framing in FRAMINGS:
        parts = re.split(r"(\{[a-z]+\})", framing.template)
        body = "".join(_SLOTS.get(p, ".+") if p.startswith("{") else re.escape(p) for p in parts)
        out.append((framing.family or framing.name, re.compile(f"^{body}$", re.IGNORECASE)))
    return out


_PATTERNS = _framing_patterns()


def framing_of(question: str) -> str:
    """The framing family whose wording ``question`` takes (``MODEL`` for none)."""
    for family, pattern in _PATTERNS:
        if pattern.match(question):
            return family
    return MODEL


def content_words(text: str) -> set[str]:
    """The lower-cased words of ``text`` that carry content."""
    return {w for w in _WORD.findall(text.lower()) if w not in _FUNCTION_WORDS}


def claim_of(question: str, reading: Reading) -> int:
    """The index of the claim ``question`` restates: the one sharing the most content
    words with it, at least ``MIN_SHARED_WORDS`` (-1: no claim of the text)."""
    words = content_words(question)
    best, best_shared = -1, MIN_SHARED_WORDS - 1
    for index, claim in enumerate(reading.claims):
        shared = len(words & (content_words(claim.text) | set(claim.lemmas)))
        if shared > best_shared:
            best, best_shared = index, shared
    return best


@dataclass(frozen=True, kw_only=True)
class PooledQuestion:
    """One chosen question, who wrote it and the filter's P(Useful) of it."""

    question: str
    origin: str
    """``claims`` or ``model``."""
    p_useful: float
    claim: int
    framing: str


@dataclass(kw_only=True)
class PooledChoice:
    """What the pooled route chose for one text."""

    chosen: list[PooledQuestion]
    note: str | None
    model_candidates: list[str]
    """The model's candidates, well-formed or not."""
    replaced: int
    """Claims questions a model question displaced."""
    filled: int
    """Empty slots a model question filled."""
    reading: Reading
    """The text as the claims generator read it."""


def pool(
    text: str,
    model_candidates: list[str],
    claims: ClaimsCQGenerator,
    *,
    candidate_filter: CandidateFilter,
    k: int = EXPECTED_QUESTIONS,
) -> PooledChoice:
    """The claims generator's questions for ``text``, where a model candidate scoring
    higher (by the filter) takes a slot; see the module docstring."""
    found = claims.questions_for(text, k)
    reading = found.reading
    by_question = {s.candidate.question: s for s in found.candidates}
    if found.note == FACTS:
        return PooledChoice(
            chosen=[],
            note=found.note,
            model_candidates=model_candidates,
            replaced=0,
            filled=0,
            reading=reading,
        )
    model: list[Scored] = []
    taken = {q.lower() for q in found.questions}
    for question in dict.fromkeys(model_candidates):
        index = claim_of(question, reading)
        flaws = tuple(str(f) for f in check_question(question, text))
        if index < 0 or flaws or question.lower() in taken:
            continue
        family = framing_of(question)
        model.append(
            Scored(
                Candidate(
                    question=question, claim=index, framing=family, generic=False, wording=family
                ),
                0.0,
                flaws,
            )
        )
    chosen_scored = [by_question[q] for q in found.questions]
    claim_scores = claims.ranker.claim_scores(reading)

    def probabilities(scored: list[Scored]) -> np.ndarray:
        if not scored:
            return np.zeros(0)
        prior = claims.ranker.prior
        return candidate_filter.probabilities(
            reading, text, scored, claim_scores=claim_scores, prior=prior
        )

    p = np.concatenate([probabilities(chosen_scored), _pessimistic(model, probabilities)])
    slots = [
        PooledQuestion(
            question=c.question, origin=CLAIMS, p_useful=float(q), claim=c.claim, framing=c.framing
        )
        for c, q in zip((s.candidate for s in chosen_scored), p, strict=False)
    ]
    replaced = filled = 0
    offers = sorted(zip(model, p[len(chosen_scored) :], strict=True), key=lambda m: -m[1])
    for scored, q in offers:
        cand = scored.candidate
        if any(s.claim == cand.claim and s.origin == FROM_MODEL for s in slots):
            continue  # one model question per claim
        offered = PooledQuestion(
            question=cand.question,
            origin=FROM_MODEL,
            p_useful=float(q),
            claim=cand.claim,
            framing=cand.framing,
        )
        if len(slots) < k:
            if q >= candidate_filter.threshold:
                slots.append(offered)
                filled += 1
            continue
        weakest = min(range(len(slots)), key=lambda i: slots[i].p_useful)
        if q < candidate_filter.threshold:
            continue  # below what the filter finds worth asking: no slot, full or empty
        if slots[weakest].origin == CLAIMS and q > slots[weakest].p_useful:
            slots[weakest] = offered
            replaced += 1
    note = found.note if len(slots) < k else None
    return PooledChoice(
        chosen=slots,
        note=note,
        model_candidates=model_candidates,
        replaced=replaced,
        filled=filled,
        reading=reading,
    )


def _pessimistic(model: list[Scored], probabilities) -> np.ndarray:
    """The filter's P(Useful) of each model candidate; one in none of the claims
    generator's framings is scored as if in the framing the filter rates lowest for it
    (the filter learned from labels of the claims generator's framings only: a question
    in another form is not given the benefit of the doubt)."""
    # every candidate's rows in one call of the filter (the text's claim features are
    # built once): a known framing is one row, another form one row per family
    rows, owner = [], []
    for i, scored in enumerate(model):
        cand = scored.candidate
        families = FAMILIES if cand.framing == MODEL else (cand.framing,)
        for family in families:
            rows.append(
                Scored(
                    Candidate(
                        question=cand.question,
                        claim=cand.claim,
                        framing=family,
                        generic=False,
                        wording=family,
                    ),
                    0.0,
                    scored.flaws,
                )
            )
            owner.append(i)
    out = np.full(len(model), np.inf)
    np.minimum.at(out, np.asarray(owner, dtype=int), probabilities(rows))
    return out


class PooledCQGenerator:
    """A language model's candidates pooled with the claims generator's; the precision
    filter keeps a model question only where it scores higher."""

    uses_llm = True
    spec: object

    def __init__(
        self, model: LLMCQGenerator, claims: ClaimsCQGenerator, candidate_filter: CandidateFilter
    ) -> None:
        self.model = model
        self.claims = claims
        self.candidate_filter = candidate_filter

    @property
    def whole_input(self):
        """The model generator's (set by the Ray engine for a part of the input)."""
        return self.model.whole_input

    @whole_input.setter
    def whole_input(self, value) -> None:
        self.model.whole_input = value

    def context_for(self, dataset: CQDataset):
        """The model generator's prompt context and warnings."""
        return self.model.context_for(dataset)

    def requests(self, dataset: CQDataset, run_index: int = 0, context=None):
        """The model generator's requests (for the Ray engine and the budget)."""
        return self.model.requests(dataset, run_index, context)

    @property
    def client(self):
        """The model's client."""
        return self.model.client

    def generate(
        self,
        dataset: CQDataset,
        *,
        run_index: int = 0,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> GenerationRun:
        """The model's run, then the pooled choice for every intervention."""
        run = self.model.generate(dataset, run_index=run_index, on_progress=on_progress)
        outcomes = []
        replaced = filled = 0
        for outcome in run.outcomes:
            text = dataset.interventions[outcome.intervention_id].intervention
            choice = pool(
                text, outcome.candidates, self.claims, candidate_filter=self.candidate_filter
            )
            replaced += choice.replaced
            filled += choice.filled
            questions = [c.question for c in choice.chosen]
            pooled = ItemOutcome(
                intervention_id=outcome.intervention_id,
                questions=questions,
                reason=None,
                candidates=outcome.candidates,
            )
            pooled.rejected = outcome.rejected
            reasons = [choice.note] if choice.note else []
            if outcome.failed:
                reasons.append(f"the model gave nothing usable ({outcome.reason})")
            pooled.note = "; ".join(reasons) or None
            outcomes.append(pooled)
        warnings = [
            *run.warnings,
            f"model questions chosen: {replaced} in place of a claims question, "
            f"{filled} in an empty slot",
        ]
        notes = outcome_notes(outcomes)
        return GenerationRun(
            outcomes=outcomes,
            stats=run.stats,
            warnings=warnings,
            notes=notes,
            this_run=run.this_run,
        )

    def signature(self, dataset: CQDataset) -> Signature:
        """The model generator's signature, named ``pooled``, with the claims ranker,
        parser and filter."""
        model = self.model.signature(dataset)
        claims = self.claims.signature(dataset)
        return Signature(
            task="cqs",
            generator="pooled",
            dataset=model.dataset,
            seed=model.seed,
            model=model.model,
            backend=model.backend,
            extra={**model.extra, **claims.extra, "filter": self.candidate_filter.identity},
        )
