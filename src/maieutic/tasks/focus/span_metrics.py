"""Span similarity for FOCUS: how close a predicted span is to a gold (or annotator) span.

- ``token_jaccard``: as the released span scores compute it — lower-cased,
  whitespace-split token *sets*; two empty spans agree (1.0), one empty scores 0.0.
  (``dev_span_scores_released.csv`` is reproduced cell for cell by the tests.)
- ``rouge_l``: ROUGE-L F-measure from ``rouge-score``, without stemming (the paper
  names no stemmer); its tokenizer keeps only letters and digits.
- ``edit_similarity``: 1 − Levenshtein distance / length of the longer span, on
  characters (rapidfuzz).
- ``word_jaccard`` and ``bigram_jaccard`` ("BiJaccard"): Jaccard of the sets of word
  unigrams / bigrams, words as scikit-learn's ``CountVectorizer`` finds them by default
  (lower-cased runs of two or more letters or digits). This is how the paper's
  annotator tables (Tables 3 and 15) were computed: on the released development files
  it gives their Jacc and BiJacc columns to three decimals for nine of the ten types.
- ``TokenEmbeddingSimilarity``: BERTScore's greedy matching (each token matched to its most
  similar token on the other side; precision and recall averaged over tokens; F1) on
  the contextual token vectors of the embedding model — no idf weights, no baseline
  rescaling, so values are on the raw cosine scale.

Pairing decides which spans are compared: ``type`` (a gold span with the predicted
span of the same type) or ``positional`` (slot 1 with slot 1, slot 2 with slot 2,
whatever their types — how the released scores were made).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from rapidfuzz.distance import Levenshtein

from maieutic.tasks.focus.type_labels import SpanLabel
from maieutic.tasks.focus.typology import NONE_ID

Metric = Callable[[str, str], float]


def _empty_rule(a: str, b: str) -> float | None:
    """Two empty spans agree fully, one empty span not at all; None otherwise."""
    if not a.strip() and not b.strip():
        return 1.0
    if not a.strip() or not b.strip():
        return 0.0
    return None


def token_jaccard(a: str, b: str) -> float:
    """|A ∩ B| / |A ∪ B| of the lower-cased whitespace-token sets."""
    if (fixed := _empty_rule(a, b)) is not None:
        return fixed
    left, right = set(a.lower().split()), set(b.lower().split())
    return len(left & right) / len(left | right)


@cache
def _rouge():
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=False)


def rouge_l(a: str, b: str) -> float:
    """ROUGE-L F-measure (reference ``a``, candidate ``b``; F is symmetric)."""
    if (fixed := _empty_rule(a, b)) is not None:
        return fixed
    return float(_rouge().score(a, b)["rougeL"].fmeasure)


def edit_similarity(a: str, b: str) -> float:
    """1 − character edit distance / length of the longer string."""
    if not a and not b:
        return 1.0
    return float(Levenshtein.normalized_similarity(a, b))


_WORD = re.compile(r"(?u)\b\w\w+\b")
"""scikit-learn's default ``token_pattern``: single-character words are dropped."""


def _word_ngrams(text: str, n: int) -> list[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return [tuple(words[i : i + n]) for i in range(len(words) - n + 1)]


def word_ngram_jaccard(a: str, b: str, n: int) -> float:
    """|A ∩ B| / |A ∪ B| of the sets of word ``n``-grams (words: see ``_WORD``).

    Two empty spans agree (1.0), one empty span scores 0.0. When neither span has an
    ``n``-gram (one-word spans for bigrams) the score is 1.0 if their words are the
    same and 0.0 otherwise.
    """
    if (fixed := _empty_rule(a, b)) is not None:
        return fixed
    left, right = set(_word_ngrams(a, n)), set(_word_ngrams(b, n))
    if not left and not right:
        return float(_word_ngrams(a, 1) == _word_ngrams(b, 1))
    return len(left & right) / len(left | right)


def word_jaccard(a: str, b: str) -> float:
    """Jaccard of the word-unigram sets (the paper's Jacc between annotators)."""
    return word_ngram_jaccard(a, b, 1)


def bigram_jaccard(a: str, b: str) -> float:
    """Jaccard of the word-bigram sets: the paper's BiJacc (Table 15)."""
    return word_ngram_jaccard(a, b, 2)


def best_match(metric: Metric, predicted: str, references: Sequence[str]) -> float:
    """The best score of ``predicted`` against any reference (no reference: as empty)."""
    return max(metric(r, predicted) for r in (references or [""]))


@dataclass(frozen=True, kw_only=True)
class SpanPair:
    """A gold span and the predicted span compared with it (None: that side has none)."""

    type: str
    gold: str | None
    predicted: str | None
    slot: int | None = None


def _by_slot(labels: Sequence[SpanLabel]) -> dict[int, SpanLabel]:
    slots: dict[int, SpanLabel] = {}
    for position, label in enumerate(labels, start=1):
        slots.setdefault(label.slot or position, label)
    return slots


def pair_labels(
    gold: Sequence[SpanLabel], *, predicted: Sequence[SpanLabel], pairing: str = "type"
) -> list[SpanPair]:
    """The span pairs to score for one argument.

    ``type``: each gold type with the predicted span of that type (None when the type
    was not predicted: scored as a miss). A predicted type absent from the gold is not
    span-scored — it is already a false positive of the classification. None of the
    Above has no span ("Null") and is never paired.

    ``positional``: slot 1 with slot 1 and slot 2 with slot 2 (labels without a slot
    take their position), the pair typed by the gold slot; an empty slot is the empty
    string, so two empty slots agree — exactly as the released scores count them.
    """
    if pairing == "positional":
        gold_slots, predicted_slots = _by_slot(gold), _by_slot(predicted)
        pairs = []
        for slot in (1, 2):
            g, p = gold_slots.get(slot), predicted_slots.get(slot)
            type_id = (g or p).type if (g or p) else NONE_ID
            pairs.append(
                SpanPair(
                    type=type_id, gold=g.text if g else "", predicted=p.text if p else "", slot=slot
                )
            )
        return pairs
    if pairing != "type":
        raise ValueError(f"pairing must be 'type' or 'positional', not {pairing!r}")
    predicted_by_type: dict[str, SpanLabel] = {}
    for label in predicted:
        predicted_by_type.setdefault(label.type, label)
    pairs = []
    for label in gold:
        if label.type == NONE_ID:
            continue
        match = predicted_by_type.get(label.type)
        pairs.append(
            SpanPair(
                type=label.type,
                gold=label.text,
                predicted=match.text if match else None,
                slot=label.slot,
            )
        )
    return pairs


class TokenEmbeddingSimilarity:
    """BERTScore-style F1 of two spans from contextual token vectors of a
    sentence-transformers model (the embedded MiniLM by default). Each distinct text
    is encoded once per call, in batches."""

    def __init__(self, encoder=None) -> None:
        if encoder is None:
            from maieutic.embed.encoder import Encoder

            encoder = Encoder()
        self.encoder = encoder
        self.n_encoded = 0

    def _token_vectors(self, texts: list[str]) -> dict[str, np.ndarray]:
        model = self.encoder.load()
        outputs = model.encode(
            texts,
            output_value="token_embeddings",
            batch_size=self.encoder.batch_size,
            show_progress_bar=False,
        )
        self.n_encoded += len(texts)
        vectors = {}
        for text, tokens in zip(texts, outputs, strict=True):
            matrix = np.asarray(
                tokens.cpu() if hasattr(tokens, "cpu") else tokens, dtype=np.float32
            )
            matrix = matrix[1:-1] if len(matrix) > 2 else matrix  # drop [CLS] and [SEP]
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            vectors[text] = matrix / np.maximum(norms, 1e-12)
        return vectors

    def score_pairs(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """F1 for each (reference, candidate) pair; empty spans follow the Jaccard rule."""
        texts = sorted({t for pair in pairs for t in pair if t.strip()})
        vectors = self._token_vectors(texts) if texts else {}
        scores = []
        for reference, candidate in pairs:
            if (fixed := _empty_rule(reference, candidate)) is not None:
                scores.append(fixed)
                continue
            similarity = vectors[candidate] @ vectors[reference].T
            precision = float(similarity.max(axis=1).mean())
            recall = float(similarity.max(axis=0).mean())
            total = precision + recall
            scores.append(2 * precision * recall / total if total > 0 else 0.0)
        return scores


TokenEmbeddingScorer = TokenEmbeddingSimilarity
"""The old name (before "scorer" came to mean a learned model only); kept for imports."""
