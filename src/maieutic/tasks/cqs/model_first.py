"""Model-first critical questions: with a language model, the model's questions come
first, and the offline claims generator fills only the slots the model leaves empty.

A model question takes a slot when it

- has no hard flaw (``hard_flaws``): it is not garbled (a word or a six-word phrase
  said twice in a row, fewer than ``MIN_WORDS`` words), not cut (unbalanced quotation
  marks or brackets) and not in another language than the text;
- is grounded in the text (``grounded``): it shares at least ``MIN_SHARED_STEMS``
  content word with the text (compared by their Porter stems, so "policies" meets
  "policy") — a question that fits any text shares none;
- is not a near repeat of a question already kept (``near_repeat``: most of its
  content words are the other's).

The softer checks of ``maieutic.language.wellformed`` (articles, a capital mid-sentence,
a bracketed aside…) were written for the claims generator's restatements and are not
applied: on the benchmark's people-labelled questions (the tuning part of
``benchmarks/replay/heldout_58.json``) those they flag were Useful as often as the rest.

Order: the model's own, or a named selector's among the usable questions. Where the
model gives fewer than three usable questions, the claims generator's questions (never
one repeating a kept question) fill the rest, and the note says how many came from
where and why. A guard built for a weak model must not cap a strong one: nothing here
compares a model question with the offline ones.

The one exception is a model this project measured writing worse critical questions
than the offline rules (``MEASURED_WEAKER``: the embedded SmolLM2-135M among them,
rated Useful 0.01 against the rules' 0.28 on held-out texts). No check of a single
question tells its questions from a strong model's (the hard flaws, the grounding and
the usefulness judge all pass most of both, measured on the tuning texts of
``benchmarks/replay/heldout_58.json``), and its usable questions put only into the slots
the rules left empty were rated Invalid 0.97 and Useful 0.00 on held-out texts
(``benchmarks/replay/r58s``): worse than no question. For such a model the route is the
offline one (``offline``), and the note says why; every other model's questions come
first.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from maieutic.language.english import looks_english
from maieutic.language.wellformed import check_question
from maieutic.language.word_lists import words
from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator
from maieutic.tasks.cqs.data import EXPECTED_QUESTIONS, Intervention
from maieutic.tasks.cqs.outcomes import ItemOutcome
from maieutic.tasks.cqs.selection import Selector, first_k
from maieutic.wording import plural

MIN_WORDS = 4
"""Fewer words than this is no question a person can use ("Why is that?")."""
MIN_SHARED_STEMS = 1
"""Content words a model question must share with the text to be about it."""
REPEAT_SHARE = 0.8
"""A question whose content words are this share of another's (both ways) repeats it."""
MODEL, CLAIMS = "model", "claims"
"""Who wrote a kept question (``written_by``)."""
MODEL_FIRST, OFFLINE = "model-first", "offline"
ORDERS = ("auto", MODEL_FIRST, OFFLINE)
"""Whose questions are shown: ``model-first``, or ``offline`` (the rules' alone, the
model not asked); ``auto`` is ``offline`` for a model of ``MEASURED_WEAKER``, else
``model-first``."""
MEASURED_WEAKER = {
    "smollm2-135m": "rated Useful 0.01 against the rules' 0.28",
    "gemma-3-270m": "rated Useful 0.00 against the rules' 0.28",
    "qwen2.5-coder-1.5b": "rated Useful 0.14 against the rules' 0.28",
}
"""Models whose critical questions two blind raters found worse than the offline
claims generator's on 38 held-out texts (docs/models.md), by a part of their name (any
case): what was measured."""


def measured_weaker(model: str | None) -> str | None:
    """What was measured of ``model``'s critical questions, where this project found
    them worse than the offline rules (None: not measured so, its questions first)."""
    name = (model or "").casefold()
    return next((why for part, why in MEASURED_WEAKER.items() if part in name), None)


def order_for(order: str, model: str | None) -> str:
    """The order a route uses: ``order`` as given, or for ``auto`` by what was measured
    of ``model``."""
    if order not in ORDERS:
        raise ValueError(f"order must be one of {', '.join(ORDERS)}, not {order!r}")
    if order != "auto":
        return order
    return OFFLINE if measured_weaker(model) else MODEL_FIRST


_HARD = {
    "doubled-word": "garbled",
    "repeated-phrase": "garbled",
    "foreign-script": "in another language",
}
_CUT_DETAILS = ("unbalanced quotation marks", "unbalanced brackets")
_WORD = re.compile(r"[a-z][a-z'-]+")
_FUNCTION_WORDS = words(
    """a, an, the, and, or, but, if, then, than, that, this, these, those, is, are, was,
    were, be, been, being, am, do, does, did, have, has, had, will, would, shall,
    should, can, could, may, might, must, of, in, on, at, to, for, from, by, with,
    about, as, into, over, under, not, no, it, its, they, them, their, he, him, his,
    she, her, we, us, our, you, your, i, me, my, what, which, who, whom, whose, why,
    how, when, where, there, here, so, such, very, more, most, some, any, all, each,
    every, also, just, other, there"""
)


@lru_cache(maxsize=1)
def _stemmer():
    # nltk's Porter stemmer (the one rouge-score uses): "murders" meets "murder" and
    # "hours" meets "hour", which a cut to the first letters does not do
    from nltk.stem.porter import PorterStemmer

    return PorterStemmer()


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return _stemmer().stem(word)


def stems(text: str) -> set[str]:
    """The Porter stems of the content words of ``text`` (lower-cased)."""
    return {
        _stem(w.strip("'-"))
        for w in _WORD.findall(text.lower())
        if w not in _FUNCTION_WORDS and len(w) > 2
    }


def hard_flaws(question: str, *, text: str) -> list[str]:
    """Why ``question`` cannot be shown as it is (empty when it can): garbled, cut or
    in another language than ``text``."""
    found = []
    if len(question.split()) < MIN_WORDS:
        found.append(f"garbled: {plural(len(question.split()), 'word')}")
    for flaw in check_question(question):
        if flaw.code in _HARD:
            found.append(f"{_HARD[flaw.code]}: {flaw.detail}")
        elif flaw.code == "punctuation" and flaw.detail in _CUT_DETAILS:
            found.append(f"cut: {flaw.detail}")
    if not any(f.startswith("in another language") for f in found) and (
        looks_english(text) and not looks_english(question)
    ):
        found.append("in another language than the text")
    return found


def grounded(question: str, text_stems: set[str]) -> bool:
    """Whether ``question`` shares a content word with the text (``text_stems``)."""
    return len(stems(question) & text_stems) >= MIN_SHARED_STEMS


def near_repeat(question: str, kept: Sequence[str]) -> str | None:
    """The kept question ``question`` repeats (most content words shared), or None."""
    mine = stems(question)
    for other in kept:
        theirs = stems(other)
        if question.lower() == other.lower():
            return other
        shared = len(mine & theirs)
        if mine and theirs and shared >= REPEAT_SHARE * max(len(mine), len(theirs)):
            return other
    return None


@dataclass(kw_only=True)
class Usable:
    """A model's candidates sorted into those that may take a slot and the rest."""

    questions: list[str]
    rejected: dict[str, str] = field(default_factory=dict)
    """Candidate → why it may not (hard flaw, not grounded, a repeat)."""


def usable_questions(text: str, candidates: Sequence[str]) -> Usable:
    """The model's candidates that may take a slot, in its order (see the module
    docstring), and why each other one may not."""
    text_stems = stems(text)
    usable: list[str] = []
    rejected: dict[str, str] = {}
    for question in dict.fromkeys(c.strip() for c in candidates if c.strip()):
        if flaws := hard_flaws(question, text=text):
            rejected[question] = "; ".join(flaws)
        elif not grounded(question, text_stems):
            rejected[question] = "not about the text: no content word of it"
        elif other := near_repeat(question, usable):
            rejected[question] = f"repeats {other!r}"
        else:
            usable.append(question)
    return Usable(questions=usable, rejected=rejected)


@dataclass(kw_only=True)
class Kept:
    """One question shown, and who wrote it."""

    question: str
    written_by: str
    """``model`` or ``claims``."""
    claim: int | None = None
    """For a claims question: the index of the claim it challenges (-n: a key phrase)."""
    framing: str | None = None


@dataclass(kw_only=True)
class ModelFirstChoice:
    """What the model-first route shows for one text."""

    kept: list[Kept]
    usable: Usable
    note: str | None
    """How many came from where, and why (None: three from the model)."""
    reading: object | None = None
    """The claims generator's reading of the text, where it was asked."""

    @property
    def from_model(self) -> int:
        """Questions the model wrote."""
        return sum(k.written_by == MODEL for k in self.kept)


def choose(
    intervention: Intervention,
    candidates: Sequence[str],
    *,
    claims: ClaimsCQGenerator,
    selector: Selector = first_k,
    k: int = EXPECTED_QUESTIONS,
) -> ModelFirstChoice:
    """The model's usable questions first (in ``selector``'s order among them), then
    the claims generator's in the slots left (see the module docstring)."""
    text = intervention.intervention
    usable = usable_questions(text, candidates)
    picked = selector(intervention, usable.questions, k) if usable.questions else []
    kept = [Kept(question=q, written_by=MODEL) for q in picked[:k]]
    if len(kept) == k:
        return ModelFirstChoice(kept=kept, usable=usable, note=None)
    found = claims.questions_for(text, k)
    fill = _offline_fill(found, kept, k=k)
    if len(kept) + len(fill) < k and len(found.questions) == k:
        # one of the rules' three repeats a model question: the rules' next ones
        fill = _offline_fill(claims.questions_for(text, k + len(kept)), kept, k=k)
    kept += fill
    return ModelFirstChoice(
        kept=kept,
        usable=usable,
        note=_note(usable, kept, claims_note=found.note, k=k),
        reading=found.reading,
    )


def _offline_fill(found, kept: list[Kept], *, k: int) -> list[Kept]:
    """The claims generator's questions for the slots ``kept`` leaves, none repeating a
    kept question, each with the claim it challenges."""
    by_question = {s.candidate.question: s.candidate for s in found.candidates}
    fill: list[Kept] = []
    for question in found.questions:
        if len(kept) + len(fill) == k:
            break
        if near_repeat(question, [c.question for c in [*kept, *fill]]) is None:
            candidate = by_question[question]
            fill.append(
                Kept(
                    question=question,
                    written_by=CLAIMS,
                    claim=candidate.claim,
                    framing=candidate.framing,
                )
            )
    return fill


def offline_choice(intervention: Intervention, *, claims: ClaimsCQGenerator) -> ModelFirstChoice:
    """The rules' questions alone (the ``offline`` order), with the claims generator's
    own note where it gave fewer than three."""
    found = claims.questions_for(intervention.intervention)
    by_question = {s.candidate.question: s.candidate for s in found.candidates}
    kept = [
        Kept(
            question=q,
            written_by=CLAIMS,
            claim=by_question[q].claim,
            framing=by_question[q].framing,
        )
        for q in found.questions
    ]
    return ModelFirstChoice(
        kept=kept, usable=Usable(questions=[]), note=found.note, reading=found.reading
    )


def _note(usable: Usable, kept: list[Kept], *, claims_note: str | None, k: int) -> str:
    """How many questions came from where, and why the model gave fewer than ``k``."""
    model = sum(c.written_by == MODEL for c in kept)
    offline = len(kept) - model
    offered = len(usable.questions) + len(usable.rejected)
    if not offered:
        why = "the model gave no question"
    elif not usable.questions:
        why = f"none of the model's {plural(offered, 'question')} was usable"
    else:
        why = f"the model gave only {plural(len(usable.questions), 'usable question')}"
    parts = [f"{model} from the model, {offline} offline: {why}"]
    if usable.rejected:
        reasons = sorted({r.split(":")[0] for r in usable.rejected.values()})
        parts.append(f"{plural(len(usable.rejected), 'question')} left out ({', '.join(reasons)})")
    if len(kept) < k and claims_note:
        parts.append(f"offline: {claims_note}")
    return "; ".join(parts)


def outcome_of(iid: str, candidates: Sequence[str], choice: ModelFirstChoice) -> ItemOutcome:
    """The choice as a generator's outcome: the questions shown (none, with the note
    saying why, where neither the model nor the rules had one: no failure), those the
    claims generator added (``filled``), the model's left out with why (``rejected``)."""
    return ItemOutcome(
        intervention_id=iid,
        questions=[k.question for k in choice.kept],
        reason=None,
        candidates=list(candidates),
        note=choice.note,
        rejected={q: [why] for q, why in choice.usable.rejected.items()},
        filled=[k.question for k in choice.kept if k.written_by == CLAIMS],
    )
