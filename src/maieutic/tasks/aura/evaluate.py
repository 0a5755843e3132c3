"""Scoring question sets against their document with the AURA pipeline; one
``EvalResult`` per set, its score the mean of the four metrics."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from maieutic.data.flags import Flag
from maieutic.errors import DataError
from maieutic.evaluate.base import BaseEvaluator
from maieutic.evaluate.result import EvalResult
from maieutic.registry import Spec
from maieutic.signature import Signature
from maieutic.tasks.aura.data import Document
from maieutic.tasks.aura.learned import LearnedAnswerability
from maieutic.tasks.aura.metrics import (
    Mapping,
    answerability,
    coverage,
    non_redundancy,
    structural_entropy,
)
from maieutic.tasks.aura.pipeline import (
    IndexedDocument,
    Reranker,
    Threshold,
    index_document,
    map_questions,
)
from maieutic.tasks.aura.templates import template

METRICS = ("answerability", "coverage", "non_redundancy", "entropy")


@dataclass(kw_only=True)
class QuestionSet:
    """One system's questions about a document."""

    questions: list[str]
    source: str
    name: str
    flags: list[Flag] = field(default_factory=list)


def document_fingerprint(text: str) -> str:
    """A content hash of the document."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


class AuraEvaluator(BaseEvaluator):
    """Answerability, coverage, non-redundancy and structural entropy of question sets."""

    def __init__(
        self,
        reranker: Reranker,
        threshold: Threshold,
        top_k: int = 5,
        *,
        link_threshold: float = 0.85,
        entropy: str = "paper",
        learned: LearnedAnswerability | None = None,
        non_redundancy: str = "paper",
    ) -> None:
        self.reranker = reranker
        self.learned = learned
        self.threshold = threshold
        self.top_k = top_k
        self.link_threshold = link_threshold
        self.entropy = entropy
        self.non_redundancy = non_redundancy
        self.spec = Spec(kind="evaluator", task="aura", name="aura", args={})
        self._indexed: dict[str, IndexedDocument] = {}

    def index(self, document: Document) -> IndexedDocument:
        """The document's units and index (built once per document text)."""
        key = document_fingerprint(document.text)
        if key not in self._indexed:
            self._indexed[key] = index_document(
                document.text, self.reranker, self.link_threshold, where=document.source
            )
        return self._indexed[key]

    def signature(self, document: Document, n_units: int) -> Signature:
        """The signature of scores on ``document``."""
        encoder = self.reranker.encoder
        return Signature(
            task="aura",
            evaluator="aura",
            dataset=document_fingerprint(document.text),
            n_references=n_units,
            model=self.reranker.cross_encoder_name or encoder.display_name,
            backend=encoder.backend,
            threshold=self.threshold.value,
            extra={
                "scale": self.reranker.scale,
                "rule": self.threshold.rule,
                "top_k": self.top_k,
                "entropy": self.entropy,
                # absent from files written before the option: those divided by the
                # answerable questions (nrs:answerable)
                "nrs": self.non_redundancy,
                "link": self.link_threshold,
                "retriever": encoder.display_name,
                **(self.learned.signature_fields() if self.learned else {}),
            },
        )

    def map(
        self, document: Document, indexed: IndexedDocument, questions: Sequence[str]
    ) -> tuple[list[Mapping], list[str], list[float] | None]:
        """Each question's unit, span and answerable decision (and the learned scorer's
        probability when one decides answerability)."""
        mappings, spans = map_questions(
            indexed, questions, self.reranker, threshold=self.threshold, top_k=self.top_k
        )
        if self.learned is None:
            return mappings, spans, None
        mappings, probability = self.learned.decide(document.text, mappings, spans)
        return mappings, spans, probability

    def score_set(
        self, document: Document, questions: Sequence[str]
    ) -> tuple[dict[str, Any], list[dict]]:
        """The four metrics and the per-question records for one set."""
        indexed = self.index(document)
        mappings, spans, probability = self.map(document, indexed, questions)
        metrics = {
            "answerability": answerability(mappings),
            "coverage": coverage(indexed.units, mappings),
            "non_redundancy": non_redundancy(mappings, self.non_redundancy),
            "entropy": structural_entropy(mappings, self.entropy),
        }
        by_id = {u.chunk_id: u for u in indexed.units}
        records = [
            {
                "question": m.question,
                "template": template(m.question),
                "unit": m.chunk_id,
                "unit_type": by_id[m.chunk_id].subtype if m.chunk_id is not None else None,
                "list_window": m.window,
                "span": span,
                "score": m.score,
                "answerable": m.answerable,
            }
            for m, span in zip(mappings, spans, strict=True)
        ]
        if probability is not None:
            for record, p in zip(records, probability, strict=True):
                record["answerable_probability"] = p
        return metrics, records

    def evaluate_one(self, reference: Document, submission: QuestionSet) -> EvalResult:
        """One question set's four metrics against the document (a set with no question
        is refused: its metrics would be 0 but non-redundancy, which says nothing)."""
        if not any(q.strip() for q in submission.questions):
            raise DataError(f"no questions in the set {submission.name!r}", where=submission.source)
        metrics, records = self.score_set(reference, submission.questions)
        indexed = self.index(reference)
        n_necessary = sum(u.type == "necessary" for u in indexed.units)
        summary = {
            **metrics,
            "n_questions": len(records),
            "n_answerable": sum(r["answerable"] for r in records),
            "n_units": len(indexed.units),
            "n_necessary": n_necessary,
        }
        warnings = [f.short for f in submission.flags]
        if self.learned:
            warnings += self.learned.warnings
        return EvalResult(
            task="aura",
            submission=submission.name,
            source=submission.source,
            signature=self.signature(reference, len(indexed.units)),
            evaluator=self.spec,
            score=sum(metrics[m] for m in METRICS) / len(METRICS),
            summary=summary,
            items=records,
            flags=submission.flags,
            warnings=warnings,
        )
