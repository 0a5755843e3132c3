"""Agreement among FOCUS annotators, per weakness type.

Each argument was judged only for the two types of its category: for each, every
annotator said yes (and gave a span) or no. Per type, over the arguments of its
category:

- ``observed``: three-rater observed agreement as the paper's appendix A.3 defines it
  (1 when all agree, 0.5 when two do), averaged;
- ``fleiss``: Fleiss' kappa of the yes/no judgements;
- ``pabak``: 2·P_o − 1 with P_o the mean pairwise agreement (Fleiss' P̄ — for binary
  judgements by several raters this is the multi-rater form of Byrt et al.'s PABAK);
- ``pairwise``: observed agreement and Cohen's kappa of each annotator pair;
- ``spans``: span similarity between annotators — per argument, the mean over the
  pairs of annotators who both gave a span, then the mean over arguments.

On the released development files this gives (type: observed / Fleiss / span Jaccard)
figures close to the paper's Table 2 and 3 for most types, but not equal: the paper's
exact item sets are not recoverable from the released files (README, "FOCUS").
Statistics that are undefined on the data (one category only) are None with the
reason in ``undefined``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from maieutic.stats import UndefinedStatistic, cohen_kappa, fleiss_kappa, three_rater_agreement
from maieutic.tasks.focus.span_metrics import rouge_l, token_jaccard
from maieutic.tasks.focus.type_labels import FocusItem
from maieutic.tasks.focus.typology import typology

SPAN_METRICS: dict[str, Callable[[str, str], float]] = {
    "jaccard": token_jaccard,
    "rouge_l": rouge_l,
}


@dataclass
class TypeAgreement:
    """Agreement on one type."""

    type: str
    n_items: int
    annotators: list[str]
    observed: float | None = None
    fleiss: float | None = None
    pabak: float | None = None
    pairwise: dict[str, dict[str, float | None]] = field(default_factory=dict)
    spans: dict[str, float | None] = field(default_factory=dict)
    n_span_items: int = 0
    undefined: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the ``meta-eval focus-humans --out`` file)."""
        return dict(self.__dict__)


def _safe(result: TypeAgreement, name: str, compute: Callable[[], float]) -> float | None:
    try:
        return float(compute())
    except UndefinedStatistic as exc:
        result.undefined[name] = str(exc)
        return None


def _mean_pairwise(votes: Sequence[Sequence[int]]) -> float:
    """Fleiss' P̄: the share of agreeing rater pairs, averaged over items."""
    total = 0.0
    for row in votes:
        pairs = list(itertools.combinations(row, 2))
        total += sum(a == b for a, b in pairs) / len(pairs)
    return total / len(votes)


def _span_agreement(items: Sequence[FocusItem], type_id: str, embedding) -> tuple[dict, int]:
    groups = []
    for item in items:
        spans = [a.text for a in item.annotations if a.type == type_id and a.text.strip()]
        if len(spans) >= 2:
            groups.append(list(itertools.combinations(spans, 2)))
    scores: dict[str, float | None] = {}
    metrics = dict(SPAN_METRICS)
    if embedding is not None:
        flat = [pair for group in groups for pair in group]
        values = iter(embedding.score_pairs(flat))
        cached = {pair: next(values) for pair in flat}
        metrics["embedding"] = lambda a, b: cached[(a, b)]
    for name, metric in metrics.items():
        per_item = [sum(metric(a, b) for a, b in group) / len(group) for group in groups]
        scores[name] = sum(per_item) / len(per_item) if per_item else None
    return scores, len(groups)


def agreement_for_type(items: Sequence[FocusItem], type_id: str, embedding=None) -> TypeAgreement:
    """Agreement on ``type_id`` over ``items`` (the arguments judged for it)."""
    annotators = sorted({a for item in items for a in item.annotators()})
    result = TypeAgreement(type_id, len(items), annotators)
    votes = [
        [
            int(any(a.type == type_id and a.annotator == who for a in item.annotations))
            for who in annotators
        ]
        for item in items
    ]
    if votes and len(annotators) == 3:
        result.observed = _safe(result, "observed", lambda: three_rater_agreement(votes))
    if votes and len(annotators) >= 2:
        result.fleiss = _safe(result, "fleiss", lambda: fleiss_kappa(votes))
        result.pabak = 2 * _mean_pairwise(votes) - 1
        for (i, a), (j, b) in itertools.combinations(enumerate(annotators), 2):
            left, right = [v[i] for v in votes], [v[j] for v in votes]
            observed = sum(x == y for x, y in zip(left, right, strict=True)) / len(votes)
            kappa = _safe(result, f"{a}-{b}", lambda x=left, y=right: cohen_kappa(x, y))
            result.pairwise[f"{a}-{b}"] = {"observed": observed, "kappa": kappa}
    result.spans, result.n_span_items = _span_agreement(items, type_id, embedding)
    return result


def type_agreement(items: Sequence[FocusItem], *, embedding=None) -> dict[str, TypeAgreement]:
    """Agreement per type over the arguments of its category, for each category with
    annotator labels (an argument where every annotator said no carries none, and
    still counts). ``embedding``: a ``TokenEmbeddingSimilarity`` for span scores."""
    out = {}
    for category in typology().categories.values():
        judged = [i for i in items if i.category == category.id]
        if not any(i.annotations for i in judged):
            continue
        for type_id in category.types:
            out[type_id] = agreement_for_type(judged, type_id, embedding)
    return out
