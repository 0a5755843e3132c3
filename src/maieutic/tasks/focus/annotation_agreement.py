"""Agreement among FOCUS annotators, per weakness type.

Each argument was judged only for the two types of its category: for each, every
annotator said yes (and gave a span) or no. Per type, over the arguments of its
category:

- ``observed``: three-rater observed agreement as the paper's appendix A.3 defines it
  (1 when all agree, 0.5 when two do), averaged;
- ``fleiss``: Fleiss' kappa of the yes/no judgements;
- ``pabak``: 2·P_o − 1 with P_o the mean pairwise agreement (Fleiss' P̄ — for binary
  judgements by several raters this is the multi-rater form of Byrt et al.'s PABAK);
- ``gwet_ac1``: Gwet's AC1 of the yes/no judgements (two categories, chance agreement
  2·π(1−π) with π the share of yes);
- ``krippendorff_alpha``: Krippendorff's alpha (nominal) of the same judgements;
- ``pairwise``: observed agreement (Table 22) and Cohen's kappa (Table 18) of each
  annotator pair;
- ``applicability``: the share of individual yes judgements, all annotators' votes
  flattened into one list (appendix A.3 / Figure 4: not a majority vote);
- ``spans``: span similarity between annotators — per argument, the mean over the
  pairs of annotators who both gave a span, then the mean over arguments. Metrics:
  ``jaccard`` (whitespace tokens, as the released span scores), ``rouge_l``,
  ``jaccard_words`` and ``bijaccard`` (word unigram / bigram sets as the paper's
  Table 15 computes them, see ``span_metrics``), ``edit`` (1 − character Levenshtein
  distance / longer length) and, when asked, ``embedding``.

``category_agreement`` adds the paper's Table 16: per category, the yes/no judgements
of both its types stacked into one list of items (2 × its arguments), with Fleiss'
kappa, Gwet's AC1 and Krippendorff's alpha.

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

from maieutic.signature import Signature
from maieutic.stats import (
    UndefinedStatistic,
    cohen_kappa,
    fleiss_kappa,
    gwet_ac1,
    krippendorff_alpha,
    three_rater_agreement,
)
from maieutic.tasks.focus.span_metrics import (
    bigram_jaccard,
    edit_similarity,
    rouge_l,
    token_jaccard,
    word_jaccard,
)
from maieutic.tasks.focus.type_labels import FocusItem
from maieutic.tasks.focus.typology import typology

SPAN_METRICS: dict[str, Callable[[str, str], float]] = {
    "jaccard": token_jaccard,
    "rouge_l": rouge_l,
    "jaccard_words": word_jaccard,
    "bijaccard": bigram_jaccard,
    "edit": edit_similarity,
}
BINARY = (0, 1)
"""The judgement categories (no, yes): AC1 counts both even where one is never used."""


@dataclass(kw_only=True)
class TypeAgreement:
    """Agreement on one type."""

    type: str
    n_items: int
    annotators: list[str]
    observed: float | None = None
    fleiss: float | None = None
    pabak: float | None = None
    gwet_ac1: float | None = None
    krippendorff_alpha: float | None = None
    applicability: dict[str, float | int] = field(default_factory=dict)
    pairwise: dict[str, dict[str, float | None]] = field(default_factory=dict)
    spans: dict[str, float | None] = field(default_factory=dict)
    n_span_items: int = 0
    undefined: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (the ``meta-eval focus-humans --out`` file)."""
        return dict(self.__dict__)


def _safe(result: Any, name: str, compute: Callable[[], float]) -> float | None:
    try:
        return float(compute())
    except UndefinedStatistic as exc:
        result.undefined[name] = str(exc)
        return None


def _label_statistics(result: Any, votes: list[list[int]]) -> None:
    """Fleiss' kappa, Gwet's AC1 and Krippendorff's alpha of ``votes`` (items × raters)
    onto ``result`` (a ``TypeAgreement`` or ``CategoryAgreement``)."""
    result.fleiss = _safe(result, "fleiss", lambda: fleiss_kappa(votes))
    result.gwet_ac1 = _safe(result, "gwet_ac1", lambda: gwet_ac1(votes, categories=BINARY))
    by_rater = [list(column) for column in zip(*votes, strict=True)]
    result.krippendorff_alpha = _safe(
        result, "krippendorff_alpha", lambda: krippendorff_alpha(by_rater, "nominal")
    )


def applicability(votes: Sequence[Sequence[int]]) -> dict[str, float | int]:
    """Every annotator's judgement counted on its own (appendix A.3): the number of yes
    and no judgements and the share of yes."""
    flat = [v for row in votes for v in row]
    yes = sum(flat)
    return {"applicable": yes, "not_applicable": len(flat) - yes, "share": yes / len(flat)}


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


def _votes(items: Sequence[FocusItem], type_id: str, annotators: list[str]) -> list[list[int]]:
    """Per item, each annotator's judgement of ``type_id``: 1 (gave a span) or 0."""
    return [
        [
            int(any(a.type == type_id and a.annotator == who for a in item.annotations))
            for who in annotators
        ]
        for item in items
    ]


def agreement_for_type(items: Sequence[FocusItem], type_id: str, embedding=None) -> TypeAgreement:
    """Agreement on ``type_id`` over ``items`` (the arguments judged for it)."""
    annotators = sorted({a for item in items for a in item.annotators()})
    result = TypeAgreement(type=type_id, n_items=len(items), annotators=annotators)
    votes = _votes(items, type_id, annotators)
    if votes and annotators:
        result.applicability = applicability(votes)
    if votes and len(annotators) == 3:
        result.observed = _safe(result, "observed", lambda: three_rater_agreement(votes))
    if votes and len(annotators) >= 2:
        _label_statistics(result, votes)
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


@dataclass(kw_only=True)
class CategoryAgreement:
    """Agreement on both types of a category at once (the paper's Table 16)."""

    category: str
    types: list[str]
    n_items: int
    """Judgements per annotator: two per argument (one per type)."""
    fleiss: float | None = None
    gwet_ac1: float | None = None
    krippendorff_alpha: float | None = None
    undefined: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON form (``categories`` of the ``--out`` file)."""
        return dict(self.__dict__)


def category_agreement(items: Sequence[FocusItem]) -> dict[str, CategoryAgreement]:
    """Per category with annotator labels: the judgements of its two types stacked into
    one list of items (first type's arguments, then the second's), and their Fleiss'
    kappa, Gwet's AC1 and Krippendorff's alpha."""
    out = {}
    for category in typology().categories.values():
        judged = [i for i in items if i.category == category.id]
        if not any(i.annotations for i in judged):
            continue
        annotators = sorted({a for item in judged for a in item.annotators()})
        votes = [row for t in category.types for row in _votes(judged, t, annotators)]
        result = CategoryAgreement(
            category=category.id, types=list(category.types), n_items=len(votes)
        )
        if len(annotators) >= 2:
            _label_statistics(result, votes)
        out[category.id] = result
    return out


def agreement_signature(dataset: str, n_items: int, embedding=None) -> Signature:
    """The signature of an agreement report: the gold file with its annotators
    (fingerprint), the number of arguments judged, and the embedding model if any."""
    encoder = getattr(embedding, "encoder", None)
    return Signature(
        task="focus",
        evaluator="human-agreement",
        dataset=dataset,
        n_references=n_items,
        model=encoder.display_name if encoder else None,
        extra={"ac1_categories": 2, "alpha_level": "nominal"},
    )
