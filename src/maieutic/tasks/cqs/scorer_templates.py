"""Training pairs for a *selection* scorer: the template generator's own candidates,
labelled by the reference-based evaluation they will face.

A scorer learned from a dataset's reference questions predicts whether a question
like those references is Useful; the template generator's fillings look unlike them,
so its ranking of fillings is weak (STS 0.6 of the 3 it selects on unseen
interventions: 0.444 with the built-in templates). Here every intervention of a
labelled dataset is over-generated (every template of its schemes, every slot filled
in every plausible way) and each candidate takes the label the STS evaluation would
give it: the label of its most similar reference when their cosine passes the
threshold, "not a match" otherwise.
The pair's class is ``Useful`` (its match is a Useful reference) or ``other``. A scorer
learned from these pairs ranks fillings by the chance that they land on a Useful
reference, and selecting with it scores 0.571 on unseen interventions (0.563 with the
benchmark's scheme file; grouped CV, ``benchmarks/bench_scorers.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from maieutic.embed.store import EmbeddingStore, embed_texts
from maieutic.metrics.similarity import cosine_best
from maieutic.scorers.examples import Examples
from maieutic.tasks.cqs.data import CQDataset
from maieutic.tasks.cqs.evaluators import COSINE
from maieutic.tasks.cqs.labels import USEFUL
from maieutic.tasks.cqs.schemes import SchemeLibrary
from maieutic.tasks.cqs.template_generator import TemplateGenerator

OTHER = "other"
MATCH_THRESHOLD = COSINE.default
"""The STS evaluator's default cosine threshold (a match must exceed it)."""
FEATURES = "pair-v2"
"""A selector's feature set. The n-grams of ``pair-v3`` help judge references but not
rank fillings, whose wordings come from a few templates (STS 0.6 of the 3 selected on
unseen interventions, a selector trained on both libraries' fillings: 0.561 / 0.558
with ``pair-v2``, 0.545 / 0.540 with ``pair-v3``, built-in templates / the benchmark's
scheme file)."""


def candidate_labels(
    candidates: Sequence[str],
    references: Sequence[tuple[str, str]],
    vectors: dict[str, np.ndarray],
    *,
    threshold: float = MATCH_THRESHOLD,
) -> list[str]:
    """The label each candidate inherits: its most similar reference's label when their
    cosine exceeds ``threshold``, ``NAE`` otherwise (``references`` are (text, label))."""
    if not candidates:
        return []
    if not references:
        return ["NAE"] * len(candidates)
    best, top = cosine_best(
        np.stack([vectors[c] for c in candidates]),
        references=np.stack([vectors[text] for text, _ in references]),
    )
    return [references[b][1] if s > threshold else "NAE" for b, s in zip(best, top, strict=True)]


def template_examples(
    dataset: CQDataset,
    libraries: Sequence[SchemeLibrary],
    encoder,
    *,
    store: EmbeddingStore | None = None,
    threshold: float = MATCH_THRESHOLD,
) -> Examples:
    """Every distinct filling of every template of ``libraries`` for each intervention
    of ``dataset``, labelled by the reference it matches. Interventions without labelled
    references are skipped (there is nothing to match against)."""
    generators = [TemplateGenerator(library, every_fill=True) for library in libraries]
    out = Examples(positive=USEFUL)
    for item in dataset.interventions.values():
        references = [(r.cq, r.label) for r in item.cqs if r.cq.strip() and r.label]
        if not references:
            continue
        candidates = list(
            dict.fromkeys(c for generator in generators for c in generator.candidates(item))
        )
        vectors = embed_texts([*candidates, *(t for t, _ in references)], encoder, store)
        labels = candidate_labels(candidates, references, vectors, threshold=threshold)
        scheme = item.schemes[0] if item.schemes else ""
        for candidate, label in zip(candidates, labels, strict=True):
            useful = label == USEFUL
            out.add(
                item.intervention,
                question=candidate,
                label=USEFUL if useful else OTHER,
                ordinal=1.0 if useful else 0.0,
                group=item.intervention_id,
                scheme=scheme,
            )
    return out
