"""The precision filter: P(strict raters call a candidate Useful), learned from labels
of the claims generator's candidates on development texts, and the choice it makes.

The model (``candidate_filter.json``, plain JSON: the features of
:mod:`maieutic.tasks.cqs.candidate_features`, their mean and scale, the coefficients,
the abstention threshold chosen on grouped cross-validation, the labels' hash and the
CV figures) is rebuilt by ``benchmarks/train_candidate_filter.py --write``.

The choice: every candidate scored, the best first, at most one question per claim
unless no other claim is left, never one the well-formedness check flags, and none
below the threshold — a text where nothing reaches it gets no question, and a note
saying why.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from maieutic.language.claims import Reading
from maieutic.tasks.cqs.candidate_features import FEATURES, candidate_rows, text_features

FORMAT = "maieutic.candidate-filter/1"
FACTS = "no question: the text states facts and argues for nothing"
REPORTED = "no claim here is contested enough to question: it reports others' views"
NOTHING = "no claim here is contested enough to question"
ILL_FORMED = "the questions it gives read badly (the well-formedness check refuses them)"


@dataclass(frozen=True, kw_only=True)
class CandidateFilter:
    """A fitted filter: standardised logistic regression over ``FEATURES``."""

    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: float
    threshold: float
    manifest: dict[str, Any]

    def probabilities(
        self, reading: Reading, text: str, scored: Sequence, *, claim_scores: np.ndarray, prior
    ) -> np.ndarray:
        """P(Useful) of each scored candidate."""
        if not scored:
            return np.zeros(0)
        x = candidate_rows(reading, text, scored, claim_scores=claim_scores, prior=prior)
        z = (x - self.mean) / self.scale
        return 1.0 / (1.0 + np.exp(-(z @ self.coef + self.intercept)))

    @property
    def identity(self) -> str:
        """A short hash of the model, for signatures."""
        blob = json.dumps(self.manifest, sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:10]


def choose(scored: Sequence, p: np.ndarray, threshold: float, *, k: int) -> list[int]:
    """Indices of up to ``k`` candidates: best first, at or above ``threshold``, none
    flagged, one per claim unless no other claim is left (and then in another framing
    family: evidence and counter-evidence of one claim use up two slots for one ask)."""
    ranked = sorted((i for i in range(len(scored)) if p[i] >= threshold), key=lambda i: -p[i])
    chosen: list[int] = []
    for per_claim in (1, k):
        for i in ranked:
            if len(chosen) == k:
                return chosen
            cand = scored[i].candidate
            same = [scored[j].candidate for j in chosen if scored[j].candidate.claim == cand.claim]
            if i in chosen or scored[i].flaws or len(same) >= per_claim:
                continue
            if any(_ask(c.framing) == _ask(cand.framing) for c in same):
                continue  # a second question about a claim asks something else of it
            chosen.append(i)
    return chosen


_SAME_ASK = {"counter": "evidence", "hedge": "evidence", "likelihood": "evidence"}
"""Families that ask one thing of a claim: whether it is true."""


def _ask(family: str) -> str:
    return _SAME_ASK.get(family, family)


ARGUING = ("proposal", "evaluation", "inference", "causal", "prediction", "attack")
"""Kinds of claim someone argues for; a text with none of them, speaking in no first or
second person, states facts."""


def abstention(reading: Reading, text: str, scored: Sequence, *, p: np.ndarray, threshold: float):
    """Why a text gets no question: it states facts, it only reports others' views, or
    the questions it gives read badly; otherwise no claim reached the threshold."""
    reached = [s for s, q in zip(scored, p, strict=True) if q >= threshold]
    if reached and all(s.flaws for s in reached):
        return ILL_FORMED
    shared = text_features(reading, text)
    personal = shared["text_first_person"] or shared["text_second_person"]
    arguing = any(set(c.kinds) & set(ARGUING) for c in reading.claims)
    if not personal and not arguing:
        return FACTS
    if reading.claims and all(c.answered or c.features.get("reported") for c in reading.claims):
        return REPORTED
    return NOTHING


@cache
def builtin_filter() -> CandidateFilter:
    """The filter shipped with maieutic (``candidate_filter.json``, beside this module)."""
    raw = resources.files(__package__).joinpath("candidate_filter.json").read_text()
    return filter_from_json(json.loads(raw))


def filter_from_json(data: dict[str, Any]) -> CandidateFilter:
    """A filter from its JSON form (``ValueError`` when it is not one of this version)."""
    if data.get("format") != FORMAT or tuple(data.get("features", ())) != FEATURES:
        raise ValueError(f"not a {FORMAT} file with this maieutic's features")
    return CandidateFilter(
        mean=np.asarray(data["mean"], dtype=float),
        scale=np.asarray(data["scale"], dtype=float),
        coef=np.asarray(data["coef"], dtype=float),
        intercept=float(data["intercept"]),
        threshold=float(data["threshold"]),
        manifest=data,
    )
