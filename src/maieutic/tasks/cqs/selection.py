"""Reducing candidate questions to the three a submission needs.

A selector takes the candidates for one intervention (in generation order) and
returns ``k`` of them whenever at least ``k`` exist: preferring some candidates over
others never costs an intervention its questions. Selectors register by name
(``@register("selector", task="cqs", name=NAME)``); a learned usefulness scorer is one more.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from maieutic.evaluate.agreement import UNSCORED
from maieutic.generate.fanout import FanOutStats
from maieutic.llm.client import LLMClient
from maieutic.llm.options import LLM_DEFAULTS, LLMOptions
from maieutic.registry import SCORER_PREFIX, register
from maieutic.tasks.cqs.data import Intervention

Selector = Callable[[Intervention, Sequence[str], int], list[str]]
_WORD = re.compile(r"[a-z']{4,}")


def first_k(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
    """The first ``k`` candidates."""
    return list(candidates[:k])


def diverse_k(
    candidates: Sequence[str], vectors: dict[str, np.ndarray], k: int, *, max_similarity: float
) -> list[str]:
    """Greedy in candidate order: keep a candidate unless its cosine with one already
    kept exceeds ``max_similarity``; if fewer than ``k`` survive, top up with the
    remaining candidates least similar to those kept."""
    kept: list[str] = []
    for text in candidates:
        if all(float(vectors[text] @ vectors[other]) <= max_similarity for other in kept):
            kept.append(text)
        if len(kept) == k:
            return kept
    rest = [c for c in candidates if c not in kept]
    while len(kept) < k and rest:
        closest = [max(float(vectors[c] @ vectors[o]) for o in kept) if kept else 0 for c in rest]
        kept.append(rest.pop(int(np.argmin(closest))))
    return [c for c in candidates if c in kept]


def overlap_score(intervention: Intervention, question: str) -> float:
    """Share of the question's content words that occur in the text: a cheap proxy for
    "about this argument" (questions with new concepts tend to be Invalid)."""
    text_words = set(_WORD.findall(intervention.intervention.lower()))
    words = _WORD.findall(question.lower())
    return sum(w in text_words for w in words) / len(words) if words else 0.0


def make_score_selector(scorer: Callable[[Intervention, str], float] = overlap_score) -> Selector:
    """Keep the ``k`` highest-scoring candidates (stable for ties), in candidate order."""

    def select(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
        scores = np.array([scorer(intervention, c) for c in candidates])
        order = np.argsort(-scores, kind="stable")[:k]
        return [candidates[i] for i in sorted(order)]

    return select


@register("selector", task="cqs", name="first")
def first() -> Selector:
    """The first three candidates."""
    return first_k


@register("selector", task="cqs", name="dedup")
def dedup(max_similarity: float = 0.85, cache: bool = True) -> Selector:
    """Avoid near-duplicates: greedy by embedding cosine (embedded model), topped up
    with the least similar remaining candidates."""

    def select(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
        if len(candidates) <= 1:
            return list(candidates[:k])
        from maieutic.embed.encoder import shared_encoder
        from maieutic.embed.store import EmbeddingStore, embed_texts

        encoder = shared_encoder()
        store = EmbeddingStore() if cache else None
        vectors = embed_texts(list(candidates), encoder, store)
        return diverse_k(candidates, vectors, k, max_similarity=max_similarity)

    return select


@register("selector", task="cqs", name="overlap")
def overlap() -> Selector:
    """Prefer questions whose content words occur in the text."""
    return make_score_selector(overlap_score)


def ranked_diverse_k(
    candidates: Sequence[str],
    scores: Sequence[float],
    vectors: dict[str, np.ndarray],
    *,
    k: int,
    max_similarity: float,
) -> list[str]:
    """The ``k`` best-scoring candidates such that no two kept have a cosine above
    ``max_similarity``; topped up with the best remaining ones when the cap leaves
    fewer than ``k`` (an intervention never loses its questions). Best first."""
    order = [candidates[i] for i in np.argsort(-np.asarray(scores), kind="stable")]
    kept: list[str] = []
    for text in order:
        if len(kept) == k:
            break
        if all(float(vectors[text] @ vectors[other]) <= max_similarity for other in kept):
            kept.append(text)
    for text in order:
        if len(kept) == k:
            break
        if text not in kept:
            kept.append(text)
    return kept


@register("selector", task="cqs", name="scorer")
def scorer(scorer: str | None = None, max_similarity: float = 0.85) -> Selector:
    """The most useful candidates by a learned scorer (``--selector scorer:DIR``), no two
    above a cosine of ``max_similarity``."""
    from maieutic.embed.encoder import shared_encoder
    from maieutic.embed.store import EmbeddingStore, embed_texts
    from maieutic.errors import DataError
    from maieutic.tasks.cqs.usefulness import PREFIX, load_judge

    if not scorer:
        raise DataError("the scorer selector needs its directory: --selector scorer:DIR")
    learned = load_judge(PREFIX + scorer)
    model = learned.manifest["features"].get("encoder_model") or None

    def select(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
        candidates = list(dict.fromkeys(candidates))
        if len(candidates) <= 1:
            return candidates[:k]
        encoder = shared_encoder(model) if model else shared_encoder()
        store = EmbeddingStore()
        contexts = [intervention.intervention] * len(candidates)
        schemes = [intervention.schemes[0] if intervention.schemes else ""] * len(candidates)
        scores = learned.score(encoder, contexts, candidates, schemes=schemes, store=store)
        vectors = embed_texts(candidates, encoder, store)
        return ranked_diverse_k(candidates, scores, vectors, k=k, max_similarity=max_similarity)

    return select


@register("selector", task="cqs", name="usefulness")
def usefulness(max_similarity: float = 0.85) -> Selector:
    """The most useful candidates by the shipped usefulness judge, no two above a cosine
    of ``max_similarity``."""
    from maieutic.tasks.cqs.usefulness import DIRECTORY

    return scorer(str(DIRECTORY), max_similarity)


@register("selector", task="cqs", name="random")
def random_choice(seed: int = 0) -> Selector:
    """``k`` candidates drawn at random (a baseline): the same draw for the same seed,
    intervention and candidates, in candidate order."""

    def select(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
        key = f"{seed}|{intervention.intervention_id}|" + "\n".join(candidates)
        rng = np.random.default_rng(int(hashlib.sha256(key.encode()).hexdigest()[:16], 16))
        drawn = rng.permutation(len(candidates))[:k]
        return [candidates[i] for i in sorted(drawn)]

    return select


JUDGED_ORDER = ("Useful", "Unhelpful", UNSCORED, "Invalid")
"""How the model-as-judge selector ranks its verdicts: best first; a question whose
verdict could not be had stays ahead of one judged Invalid."""


@register("selector", task="cqs", name="llm-judge", uses_llm=True)
def llm_judge(
    llm: str | None = None,
    *,
    base_url: str | None = None,
    llm_backend: str = LLM_DEFAULTS.llm_backend,
    concurrency: int = LLM_DEFAULTS.concurrency,
    timeout: float = LLM_DEFAULTS.timeout,
    retries: int = LLM_DEFAULTS.retries,
) -> Selector:
    """The model as its own judge: it labels each candidate Useful, Unhelpful or
    Invalid by the benchmark's guidelines (the ``llm-label`` judge's prompt,
    ``maieutic.tasks.cqs.judges``), and the best three are kept, in candidate order
    among equals. With a generator, the generator's own model, server and client."""
    return judge_selector(LLMOptions.of(locals()).client())


def judge_selector(client: LLMClient) -> Selector:
    """The ``llm-judge`` selector asking through ``client`` (a generator's own, so its
    calls are cached, logged and counted with the generator's). The selector's
    ``judge`` attribute is its ``JudgeMatcher`` (signature fields, calls, failures)."""
    from maieutic.tasks.cqs.judges import JudgeMatcher

    judge = JudgeMatcher("llm-label", client)

    def select(intervention: Intervention, candidates: Sequence[str], k: int = 3) -> list[str]:
        candidates = list(dict.fromkeys(candidates))
        if len(candidates) <= k:
            return candidates
        verdicts = judge.match(intervention, candidates)
        rank = [JUDGED_ORDER.index(v.label) for v in verdicts]
        order = sorted(range(len(candidates)), key=lambda i: rank[i])
        return [candidates[i] for i in order[:k]]

    select.judge = judge  # type: ignore[attr-defined]
    return select


def judge_calls(selector: Selector) -> FanOutStats:
    """The model calls a selector's judge has asked so far (none for other selectors)."""
    judge = getattr(selector, "judge", None)
    return replace(judge.judge.stats) if judge is not None else FanOutStats()


def calls_since(now: FanOutStats, *, before: FanOutStats) -> FanOutStats:
    """The calls between two readings of a judge's counts."""
    return FanOutStats(
        requests=now.requests - before.requests,
        cache_hits=now.cache_hits - before.cache_hits,
        failed=now.failed - before.failed,
        sent=now.sent - before.sent,
    )


def judge_signature(selector: Selector) -> dict[str, object]:
    """What a judging selector adds to a signature: its prompt's hash (none for others)."""
    judge = getattr(selector, "judge", None)
    return {"judge_prompt": judge.signature_fields()["prompt"]} if judge is not None else {}


@register("selector", task="cqs", name="filter")
def candidate_filter() -> Selector:
    """The precision filter learned from strict ratings
    (``maieutic.tasks.cqs.candidate_filter``). It chooses among the claims generator's
    candidates by their claims and framings, and may leave a text without questions,
    so it goes with the claims generator only."""
    from maieutic.errors import DataError

    raise DataError(
        "--selector filter chooses among the claims generator's candidates: "
        "use it with --generator claims"
    )


def make_selector(name: str, *, client: LLMClient | None = None, seed: int = 0) -> Selector:
    """A registered selector by name, or ``scorer:DIR``; ``client`` is the model of a
    selector that asks one (``llm-judge``: a generator's own client), ``seed`` the draw
    of ``random``."""
    from maieutic.errors import DataError
    from maieutic.registry import create

    if name.startswith(SCORER_PREFIX):
        return create(
            "selector", task="cqs", name="scorer", scorer=name.removeprefix(SCORER_PREFIX)
        )
    if name == "llm-judge":
        if client is None:
            raise DataError("--selector llm-judge asks a language model: this generator has none")
        return judge_selector(client)
    if name == "random":
        return create("selector", task="cqs", name=name, seed=seed)
    return create("selector", task="cqs", name=name)
