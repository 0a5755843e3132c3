"""Scoring FOCUS predictions: weakness types (multi-label P/R/F1, both modes) and the
spans that go with them (Jaccard, ROUGE-L, edit similarity and an embedding score),
against the gold spans and, when the annotators' files are given, against every
annotator's span (best match), as the paper's Table 6 does."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from maieutic.data.flags import Flag
from maieutic.errors import DataError
from maieutic.evaluate.base import BaseEvaluator
from maieutic.evaluate.result import EvalResult
from maieutic.registry import Spec
from maieutic.signature import Signature
from maieutic.tasks.focus import span_metrics as spans
from maieutic.tasks.focus.classification import MODES, classification_scores
from maieutic.tasks.focus.type_labels import FocusItem, FocusSet

TEXT_METRICS: dict[str, Callable[[str, str], float]] = {
    "jaccard": spans.token_jaccard,
    "rouge_l": spans.rouge_l,
    "edit": spans.edit_similarity,
}
PAIRINGS = ("type", "positional")


@dataclass
class ScoredPair:
    """One gold/predicted span pair with its scores."""

    pair: spans.SpanPair
    scores: dict[str, float] = field(default_factory=dict)
    """Against the gold span, per metric."""
    scores_all: dict[str, float] = field(default_factory=dict)
    """Best match over the gold and every annotator's span of that type."""

    def to_json(self) -> dict[str, Any]:
        out = {
            "type": self.pair.type,
            "slot": self.pair.slot,
            "gold": self.pair.gold,
            "predicted": self.pair.predicted,
            **self.scores,
        }
        out.update({f"{k}_all": v for k, v in self.scores_all.items()})
        return out


@dataclass(kw_only=True)
class FocusItemResult:
    """One argument: gold and predicted types and the scored span pairs."""

    id: str
    category: str | None
    gold: list[str]
    predicted: list[str]
    pairs: list[ScoredPair]
    missing: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "category": self.category,
            "gold": self.gold,
            "predicted": self.predicted,
            "missing": self.missing,
            "spans": [p.to_json() for p in self.pairs],
        }


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def span_summary(pairs: Sequence[ScoredPair], attribute: str) -> dict[str, dict[str, Any]]:
    """Per metric: the mean over all scored pairs and the mean per type."""
    out: dict[str, dict[str, Any]] = {}
    metrics = sorted({m for p in pairs for m in getattr(p, attribute)})
    for metric in metrics:
        by_type: dict[str, list[float]] = {}
        for p in pairs:
            if metric in getattr(p, attribute):
                by_type.setdefault(p.pair.type, []).append(getattr(p, attribute)[metric])
        everything = [v for values in by_type.values() for v in values]
        out[metric] = {
            "mean": _mean(everything),
            "n": len(everything),
            "by_type": {t: _mean(v) for t, v in sorted(by_type.items())},
        }
    return out


def _predictions_for(
    gold: FocusSet, *, submission: FocusSet, skip_unknown: bool
) -> tuple[list[tuple[FocusItem, FocusItem, bool]], list[Flag], list[str]]:
    """(gold, predicted, missing) per gold argument; unknown ids are an error unless
    skipped; a gold argument with no prediction counts as None of the Above, flagged."""
    unknown = [k for k in submission.items if k not in gold.items]
    warnings: list[str] = []
    if unknown and not skip_unknown:
        raise DataError(
            f"{len(unknown)} id(s) not in the gold data (first: {unknown[0]!r}); "
            "--skip-unknown scores the rest",
            where=submission.source,
        )
    if unknown:
        warnings.append(f"skipped {len(unknown)} id(s) not in the gold data")
    flags: list[Flag] = []
    out = []
    for key, gold_item in gold.items.items():
        predicted = submission.items.get(key)
        if predicted is None:
            flags.append(
                Flag(
                    file=submission.source,
                    at=key,
                    code="missing-prediction",
                    message="no prediction (scored as None of the Above)",
                    item=key,
                )
            )
            out.append(
                (
                    gold_item,
                    FocusItem(id=key, argument=gold_item.argument, category=gold_item.category),
                    True,
                )
            )
            continue
        if " ".join(predicted.argument.split()) != " ".join(gold_item.argument.split()):
            raise DataError(
                f"{key!r}: the argument differs from the gold file's "
                "(files not in the same order?)",
                where=submission.source,
            )
        out.append((gold_item, predicted, False))
    return out, flags, warnings


class FocusEvaluator(BaseEvaluator):
    """Types and spans of FOCUS predictions against gold data."""

    def __init__(
        self, mode: str = "category", *, pairing: str = "type", embedding: Any = None
    ) -> None:
        if mode not in MODES:
            raise DataError(f"--mode must be one of {', '.join(MODES)}, not {mode!r}")
        if pairing not in PAIRINGS:
            raise DataError(f"--pairing must be one of {', '.join(PAIRINGS)}, not {pairing!r}")
        self.mode = mode
        self.pairing = pairing
        self.embedding = embedding
        """A ``TokenEmbeddingSimilarity`` (or None: no embedding score)."""
        self.spec = Spec(
            kind="evaluator",
            task="focus",
            name="type-span",
            args={"mode": mode, "pairing": pairing},
        )
        # what ``prepare`` found for the run under way: each submission's pairs with
        # the gold arguments (by object), and the run's signature
        self._prepared: dict[int, tuple[list, list[Flag], list[str]]] = {}
        self._signature: Signature | None = None

    def signature(self, gold: FocusSet) -> Signature:
        """The signature of results made against ``gold``."""
        encoder = getattr(self.embedding, "encoder", None)
        return Signature(
            task="focus",
            evaluator=self.spec.name,
            dataset=gold.fingerprint(),
            n_references=gold.n_references,
            model=encoder.display_name if encoder else None,
            backend=encoder.backend if encoder else None,
            extra={"mode": self.mode, "pairing": self.pairing},
        )

    def _pairs(self, gold_item: FocusItem, *, predicted: FocusItem) -> list[ScoredPair]:
        scored = []
        for pair in spans.pair_labels(
            gold_item.labels, predicted=predicted.labels, pairing=self.pairing
        ):
            if pair.gold is None and pair.predicted is None:
                continue
            scored.append(ScoredPair(pair))
        return scored

    def _score_spans(self, items: list[FocusItemResult], gold: FocusSet) -> None:
        everything = [p for item in items for p in item.pairs]
        for p in everything:
            g, s = p.pair.gold or "", p.pair.predicted or ""
            p.scores = {name: metric(g, s) for name, metric in TEXT_METRICS.items()}
        if self.embedding is not None:
            values = self.embedding.score_pairs(
                [(p.pair.gold or "", p.pair.predicted or "") for p in everything]
            )
            for p, value in zip(everything, values, strict=True):
                p.scores["embedding"] = value
        if not any(i.annotations for i in gold.items.values()):
            return
        # against every annotator too: the best match over the gold span and each
        # annotator's span of the same type (type pairing) or slot (positional pairing)
        jobs: list[tuple[ScoredPair, list[str]]] = []
        for item in items:
            annotations = gold.items[item.id].annotations
            for p in item.pairs:
                same = [
                    a.text
                    for a in annotations
                    if (
                        a.slot == p.pair.slot
                        if self.pairing == "positional"
                        else a.type == p.pair.type
                    )
                ]
                # the gold span always counts (an empty gold slot agrees with an empty
                # prediction); annotators add the spans they gave
                jobs.append((p, [p.pair.gold or "", *(x for x in same if x.strip())]))
        for p, references in jobs:
            predicted = p.pair.predicted or ""
            p.scores_all = {
                n: spans.best_match(m, predicted, references) for n, m in TEXT_METRICS.items()
            }
        if self.embedding is not None:
            flat = [(r, p.pair.predicted or "") for p, refs in jobs for r in refs]
            values = iter(self.embedding.score_pairs(flat))
            for p, references in jobs:
                p.scores_all["embedding"] = max(next(values) for _ in references)

    def prepare(
        self, reference: FocusSet, submissions: Sequence[FocusSet], *, skip_unknown: bool
    ) -> None:
        """Pair every submission with the gold arguments before any span is scored (an
        unknown id or a changed argument is an error before any model work)."""
        self._prepared = {
            id(s): _predictions_for(reference, submission=s, skip_unknown=skip_unknown)
            for s in submissions
        }
        self._signature = self.signature(reference)

    def evaluate_one(self, reference: FocusSet, submission: FocusSet, /) -> EvalResult:
        """One prediction file's types and spans against the gold data."""
        triples, flags, warnings = self._prepared[id(submission)]
        items = [
            FocusItemResult(
                id=g.id,
                category=g.category,
                gold=sorted(g.type_set()),
                predicted=sorted(p.type_set()),
                pairs=self._pairs(g, predicted=p),
                missing=missing,
            )
            for g, p, missing in triples
        ]
        self._score_spans(items, reference)
        pairs = [(g, p) for g, p, _ in triples]
        classification = {mode: classification_scores(pairs, mode) for mode in MODES}
        summary = {
            "mode": self.mode,
            "pairing": self.pairing,
            "n_items": len(items),
            "n_missing": sum(i.missing for i in items),
            "classification": classification,
            "spans": span_summary([p for i in items for p in i.pairs], "scores"),
            "spans_all": span_summary([p for i in items for p in i.pairs], "scores_all"),
        }
        all_flags = submission.flags + flags
        return EvalResult(
            task="focus",
            submission=submission.name,
            source=submission.source,
            signature=self._signature,
            evaluator=self.spec,
            score=classification[self.mode]["with_none"]["macro"]["f1"],
            summary=summary,
            items=items,
            flags=all_flags,
            warnings=[*submission.warnings, *warnings, *(f.short for f in all_flags)],
        )
