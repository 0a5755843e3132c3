"""Diversity of a set of generated questions.

"Benchmarking Critical Questions Generation" (section 7, Table 4) measures diversity
with the tool of Shaib et al. ("Standardizing the measurement of text diversity"),
and so does maieutic's headline figure, computed the way that tool computes it:

* n-gram diversity: the questions are joined with single spaces and split on single
  spaces (case and punctuation kept, so n-grams run across question boundaries); for
  n = 1..4, distinct n-grams / all n-grams, summed (a value in [0, 4]).
* compression ratio: the size of the joined text (UTF-8) over its gzip-compressed
  size. That tool writes ``gzip.compress(text)`` into a ``GzipFile``, i.e. compresses
  twice, and measures the outer file (whose header names the file ``compressed``).
  The inner header carries the current time, and since the outer pass compresses
  those four bytes too, the size depends on them slightly (all zeros compress a few
  bytes smaller than a real date). maieutic stamps a fixed date of 2025, when the
  paper's figures were computed, so it gets the tool's byte counts for present-day
  timestamps while never moving between runs.
* CR-div: the paper's diversity score, the reciprocal of the compression ratio (in
  (0, 1]; lower means more repetitive).

A second, per-question variant is kept under its own name (``per_question``):
lower-cased tokens, n-grams that never cross a question boundary, and a single gzip
pass over the questions joined by newlines.
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Sequence

MAX_N = 4
# The tool writes its compressed file as "compressed.gz"; gzip stores the name without
# ".gz" in the header, so it is part of the measured size.
_REFERENCE_GZIP_NAME = "compressed.gz"
_INNER_MTIME = 1_750_000_000  # 2025-06-15: a present-day timestamp, fixed


def _ngrams(tokens: list[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def ngram_diversity_score(texts: Sequence[str], max_n: int = MAX_N) -> float | None:
    """The cited tool's n-gram diversity: joined texts, case kept, summed over n.

    None when the joined text has fewer than ``max_n`` tokens (the tool divides by zero).
    """
    tokens = " ".join(texts).split(" ")
    total = 0.0
    for n in range(1, max_n + 1):
        grams = _ngrams(tokens, n)
        if not grams:
            return None
        total += len(set(grams)) / len(grams)
    return total


def compressed_sizes(texts: Sequence[str]) -> tuple[int, int]:
    """(original bytes, compressed bytes) as the cited tool measures them."""
    raw = " ".join(texts).encode("utf-8")
    inner = gzip.compress(raw, compresslevel=9, mtime=_INNER_MTIME)
    buffer = io.BytesIO()
    with gzip.GzipFile(filename=_REFERENCE_GZIP_NAME, mode="wb", fileobj=buffer, mtime=0) as f:
        f.write(inner)
    return len(raw), len(buffer.getvalue())


def compression_ratio(texts: Sequence[str]) -> float | None:
    """Original size / compressed size of the joined texts (None for no text)."""
    original, compressed = compressed_sizes(texts)
    return original / compressed if original else None


def cr_div(texts: Sequence[str]) -> float | None:
    """The paper's CR-div: 1 / compression ratio."""
    ratio = compression_ratio(texts)
    return None if ratio is None else 1 / ratio


def per_question_ngram_diversity(
    texts: Sequence[str], max_n: int = MAX_N
) -> dict[str, float | None]:
    """Distinct/total n-gram ratio per n over lower-cased tokens, n-grams within each
    question only, and their sum under ``"sum"`` (None where no n-gram of that length
    exists; the sum counts the defined ratios)."""
    tokenised = [text.lower().split() for text in texts]
    out: dict[str, float | None] = {}
    defined: list[float] = []
    for n in range(1, max_n + 1):
        grams = [g for tokens in tokenised for g in _ngrams(tokens, n)]
        ratio = len(set(grams)) / len(grams) if grams else None
        out[str(n)] = ratio
        if ratio is not None:
            defined.append(ratio)
    out["sum"] = sum(defined) if defined else None
    return out


def per_question_cr_div(texts: Sequence[str]) -> float | None:
    """Compressed / original size of the texts joined by newlines (one gzip pass)."""
    raw = "\n".join(texts).encode("utf-8")
    if not raw:
        return None
    return len(gzip.compress(raw, compresslevel=9, mtime=0)) / len(raw)


def diversity_report(texts: Sequence[str]) -> dict[str, object]:
    """Both the paper's measures and the per-question variant for one set of texts."""
    texts = list(texts)
    return {
        "n_texts": len(texts),
        "ngram_diversity": ngram_diversity_score(texts) if texts else None,
        "compression_ratio": compression_ratio(texts) if texts else None,
        "cr_div": cr_div(texts) if texts else None,
        "per_question": {
            "ngram": per_question_ngram_diversity(texts),
            "cr_div": per_question_cr_div(texts),
        },
    }
