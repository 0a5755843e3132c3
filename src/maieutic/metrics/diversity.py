"""Diversity of a set of generated questions.

Following "Benchmarking Critical Questions Generation" (section 7), which uses the
measures standardised by Shaib et al.:

* n-gram diversity: for each n, distinct n-grams / total n-grams over the whole set;
  the summary score is the sum over n = 1..4 (so it lies in [0, 4]).
* compression-ratio diversity (CR-div): the reciprocal of the gzip compression ratio
  of the joined texts, i.e. compressed size / original size; lower means more
  repetitive text.

Tokens are lower-cased whitespace-separated words; n-grams do not cross question
boundaries, so two questions are never glued into a spurious n-gram.
"""

from __future__ import annotations

import gzip
from collections.abc import Sequence

MAX_N = 4


def _ngrams(tokens: list[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def ngram_diversity(texts: Sequence[str], max_n: int = MAX_N) -> dict[str, float | None]:
    """Distinct/total n-gram ratio per n, and their sum under key ``"sum"``.

    A ratio is None when the set has no n-gram of that length; the sum then counts
    only the defined ratios (and is None if none is defined).
    """
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


def compression_ratio_diversity(texts: Sequence[str]) -> float | None:
    """Compressed size / original size of the texts joined by newlines (gzip, level 9).

    ``mtime=0`` keeps the gzip header, and so the score, byte-for-byte reproducible.
    Returns None for an empty set.
    """
    raw = "\n".join(texts).encode("utf-8")
    if not raw:
        return None
    return len(gzip.compress(raw, compresslevel=9, mtime=0)) / len(raw)


def diversity_report(texts: Sequence[str]) -> dict[str, object]:
    """Both diversity measures for one set of texts."""
    return {
        "n_texts": len(texts),
        "ngram": ngram_diversity(texts),
        "cr_div": compression_ratio_diversity(texts),
    }
