"""Which claims of a text people challenge, and which framings they find useful —
learned from the benchmark's labelled references.

Supervision: every Useful reference question of an intervention is about some clause
of it. Each reference is assigned to the clause it is most similar to (cosine of
sentence embeddings, at least ``MATCH_COSINE``); a clause that receives a Useful
reference is one people challenged. A logistic regression over a few features of the
clause (how many content words it has, whether its subject is a bare pronoun or
"you", whether its words recur elsewhere in the text, whether it states a figure, a
proposal) ranks the clauses of a text. Features are centred within each text before
fitting — what matters is which clause of *this* text to ask about — and it is
measured by grouped cross-validation over interventions (no text on both sides).

Framings get a prior: the share of the references written in that framing's family
("What evidence…", "How does … define …") that people labelled Useful, smoothed
towards the overall share.

The model is shipped as plain JSON (``claim_ranker.json``); ``benchmarks/
train_claim_ranker.py`` rebuilds it and prints its cross-validated figures.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from maieutic.language.claims import Reading

FORMAT = "maieutic.claim-ranker/2"
FEATURES = (
    "n_content",
    "log_content",
    "subject_pronoun",
    "subject_second_person",
    "subject_entity",
    "recurring",
    "recurring_share",
    "kind_statistic",
    "kind_causal",
    "kind_evaluation",
    "kind_generalisation",
    "kind_prediction",
    "kind_proposal",
    "kind_inference",
    "has_action",
    "has_entity",
    "negated",
    "reported",
    "first_sentence",
    "last_sentence",
    "premise",
    "concluded",
    "stance",
    "hedged",
    "answered",
)
"""What the ranker reads of a claim: its length, its subject, how much of it recurs in
the text's other claims, its kind, where it stands in the text and in the argument (a
premise given for another claim, a conclusion drawn from one), and whether it is the
speaker's own view, hedged, or said in the message a reply answers."""
MATCH_COSINE = 0.4
"""A reference is about a clause when their cosine (MiniLM) is at least this and no
other clause of the text is closer."""
PRIOR_SMOOTHING = 20.0
"""Pseudo-count pulling a framing family's Useful share towards the overall share."""

FAMILIES: dict[str, str] = {
    "counter": r"\b(?:contradict\w*|counter-?evidence|evidence against)\b",
    "evidence": r"\b(?:evidence|data|proof)\b",
    "checkable": r"\b(?:is it (?:actually|really) (?:the case|true)|accurate)\b",
    "exceptions": r"\b(?:exceptions?|always|every case|all cases|generali[sz]\w*)\b",
    "figures": r"\b(?:figures?|statistics?|percent\w*|numbers?)\b",
    "other-causes": r"\b(?:other factors|other causes|something else|alternative explanations?)\b",
    "likelihood": r"\bhow likely\b|\bprobab\w*",
    "alternatives": (
        r"\b(?:alternative|better) (?:actions?|ways?|solutions?|options?|approach\w*)\b"
    ),
    "side-effects": r"\b(?:consequences|side effects|drawbacks|risks|go wrong|unintended)\b",
    "feasibility": r"\b(?:practically possible|feasib\w*|cost\w*|afford\w*)\b",
    "source": r"\b(?:experts?|credible|reliable|sources?|qualifi\w+)\b",
    "typical": r"\b(?:typical|representative)\b",
    "comparison": r"\b(?:compar\w+|similar\w*|analog\w*)\b",
    "relevance": r"\b(?:relevant|relevance|character|attack\w*)\b",
    "standard": r"\b(?:standard|criteria|judge\w*)\b",
    "definition": r"\b(?:define|definition|mean by|meant by)\b",
    "inference": r"\b(?:follow|generali[sz]ation|does (?:this|that|it) (?:mean|show|prove))\b",
}


def claim_features(reading: Reading) -> np.ndarray:
    """One row of ``FEATURES`` per claim of ``reading``."""
    counts = Counter(w for c in reading.claims for w in set(c.lemmas))
    last = max((c.sentence for c in reading.claims if not c.answered), default=0)
    rows = []
    for claim in reading.claims:
        f = claim.features
        recurring = float(sum(counts[w] > 1 for w in claim.lemmas))
        kinds = set(claim.kinds)
        row = {
            "n_content": f.get("n_content", 0.0),
            "log_content": math.log1p(f.get("n_content", 0.0)),
            "subject_pronoun": f.get("subject_pronoun", 0.0),
            "subject_second_person": f.get("subject_second_person", 0.0),
            "subject_entity": f.get("subject_entity", 0.0),
            "recurring": recurring,
            "recurring_share": recurring / max(len(claim.lemmas), 1),
            **{
                f"kind_{k}": float(k in kinds)
                for k in (
                    "statistic",
                    "causal",
                    "evaluation",
                    "generalisation",
                    "prediction",
                    "proposal",
                    "inference",
                )
            },
            "has_action": float(bool(claim.action)),
            "has_entity": f.get("has_entity", 0.0),
            "negated": f.get("negated", 0.0),
            "reported": f.get("reported", 0.0),
            "first_sentence": float(claim.sentence == 0 and not claim.answered),
            "last_sentence": float(claim.sentence == last and not claim.answered),
            "premise": f.get("premise", 0.0),
            "concluded": f.get("concluded", 0.0),
            "stance": float(claim.stance),
            "hedged": float(claim.hedged),
            "answered": float(claim.answered),
        }
        rows.append([row[name] for name in FEATURES])
    return np.asarray(rows, dtype=float).reshape(len(reading.claims), len(FEATURES))


@dataclass(frozen=True, kw_only=True)
class ClaimRanker:
    """A fitted ranker: which claims to challenge, and framing priors."""

    scale: np.ndarray
    coef: np.ndarray
    priors: dict[str, float]
    manifest: dict[str, Any]

    def claim_scores(self, reading: Reading) -> np.ndarray:
        """A score in (0, 1) per claim: how likely people are to challenge it, relative
        to the text's other claims."""
        if not reading.claims:
            return np.zeros(0)
        x = claim_features(reading)
        x = (x - x.mean(axis=0)) / np.where(self.scale > 0, self.scale, 1.0)
        return 1.0 / (1.0 + np.exp(-(x @ self.coef)))

    def prior(self, framing: str) -> float:
        """The Useful share of references in this framing's family."""
        return self.priors.get(framing, self.priors.get("*", 0.6))

    @property
    def identity(self) -> str:
        """A short hash of the model, for signatures."""
        return self.manifest["identity"]

    def trained_on(self, text: str) -> bool:
        """Whether ``text`` was among the texts the ranker learned from."""
        return text_hash(text) in set(self.manifest.get("training_texts", ()))


def text_hash(text: str) -> str:
    """Short SHA-256 of a text (the ranker lists its training texts this way)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@cache
def builtin_ranker() -> ClaimRanker:
    """The ranker shipped with maieutic (``claim_ranker.json``, beside this module)."""
    raw = resources.files(__package__).joinpath("claim_ranker.json").read_text()
    return ranker_from_json(json.loads(raw))


def ranker_from_json(data: dict[str, Any]) -> ClaimRanker:
    """A ranker from its JSON form."""
    if data.get("format") != FORMAT or tuple(data.get("features", ())) != FEATURES:
        raise ValueError(f"not a {FORMAT} file with features {FEATURES}")
    return ClaimRanker(
        scale=np.asarray(data["scale"], dtype=float),
        coef=np.asarray(data["coef"], dtype=float),
        priors=dict(data["priors"]),
        manifest=data,
    )


# --- training ---------------------------------------------------------------------


def family_of(question: str) -> list[str]:
    """The framing families a reference question is written in."""
    return [name for name, pattern in FAMILIES.items() if re.search(pattern, question, re.I)]


def framing_priors(items: Sequence[Any]) -> dict[str, float]:
    """Smoothed Useful share per framing family over the references of ``items``."""
    useful, total = Counter(), Counter()
    for item in items:
        for ref in item.cqs:
            for family in [*family_of(ref.cq), "*"]:
                total[family] += 1
                useful[family] += ref.label == "Useful"
    base = useful["*"] / total["*"] if total["*"] else 0.6
    priors = {
        family: (useful[family] + PRIOR_SMOOTHING * base) / (total[family] + PRIOR_SMOOTHING)
        for family in FAMILIES
    }
    priors["*"] = base
    return {k: round(v, 4) for k, v in priors.items()}


def clause_targets(reading: Reading, references: Sequence[Any], encoder) -> np.ndarray:
    """1 for each claim that the text's Useful references are about (see module doc)."""
    claims = reading.claims
    y = np.zeros(len(claims))
    if not claims or not references:
        return y
    texts = [c.text for c in claims] + [r.cq for r in references]
    vectors = np.asarray(encoder.encode(texts), dtype=float)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-12
    similarity = vectors[len(claims) :] @ vectors[: len(claims)].T
    for row, ref in zip(similarity, references, strict=True):
        best = int(np.argmax(row))
        if ref.label == "Useful" and row[best] >= MATCH_COSINE:
            y[best] = 1.0
    return y


def within_text_auc(y: np.ndarray, *, scores: np.ndarray, groups: np.ndarray) -> float:
    """Mean ROC AUC over texts that have both a challenged and an unchallenged claim."""
    from sklearn.metrics import roc_auc_score

    values = []
    for group in np.unique(groups):
        mask = groups == group
        if 0 < y[mask].sum() < mask.sum():
            values.append(roc_auc_score(y[mask], scores[mask]))
    return float(np.mean(values)) if values else math.nan


def centred(x: np.ndarray, *, groups: np.ndarray) -> np.ndarray:
    """Features minus their mean within each text."""
    out = x.copy()
    for group in np.unique(groups):
        mask = groups == group
        out[mask] -= x[mask].mean(axis=0)
    return out
