"""The four AURA metrics ("AURA-QG", section 4.3), as plain functions of the
per-question mappings, so each can be checked by hand.

- answerability: answerable questions / all questions;
- coverage: covered necessary units / necessary units, a unit being covered by an
  answerable question mapped to it, to a window linked to it, or to one of its list
  items or item windows (section 4.4);
- non-redundancy: 1 − |R| / |Q|, R the redundant questions — an answerable question
  mapped to the unit of an earlier answerable question — over all questions, as
  section 4.3.3 writes it (``paper``); or over the answerable questions only, as the
  reference code divides (``answerable``). With no answerable question R is empty and
  both give 1.0;
- balanced structural entropy: SE·(|Q|/|C|) / (SE·(|Q|/|C|) + |C|) over question
  templates, with |C| the number of possible template classes as the paper's formula
  says (``paper``), or — the reference code's variant (``observed``) — the number of
  classes observed among the answerable questions. Only ``observed`` can reach the
  magnitudes of the paper's Table 2 (docs/aura-paper.md works the arithmetic).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from maieutic.tasks.aura.data import Unit
from maieutic.tasks.aura.templates import TEMPLATE_CLASSES, template

ENTROPY_VARIANTS = ("paper", "observed")
NON_REDUNDANCY_VARIANTS = ("paper", "answerable")


@dataclass(frozen=True, kw_only=True)
class Mapping:
    """Where one question landed: its best unit (a refined list window counts as its
    list with ``window`` set), the score and whether it clears the threshold."""

    question: str
    chunk_id: int | None
    score: float | None
    answerable: bool
    window: int | None = None


def answerability(mappings: Sequence[Mapping]) -> float:
    """Share of questions that are answerable (0 for an empty set)."""
    return sum(m.answerable for m in mappings) / len(mappings) if mappings else 0.0


def covered_units(units: Sequence[Unit], mappings: Sequence[Mapping]) -> set[int]:
    """Ids of the necessary units covered by the answerable questions."""
    by_id = {u.chunk_id: u for u in units}
    covered: set[int] = set()
    for mapping in mappings:
        if not mapping.answerable or mapping.chunk_id is None:
            continue
        unit = by_id[mapping.chunk_id]
        if unit.type == "necessary":
            covered.add(unit.chunk_id)
        else:  # a window's linked sentences, a bullet's list
            covered.update(unit.parent_chunk_ids)
    return covered


def coverage(units: Sequence[Unit], mappings: Sequence[Mapping]) -> float:
    """Share of necessary units covered."""
    necessary = [u for u in units if u.type == "necessary"]
    if not necessary:
        raise ValueError("the document has no content units")
    covered = covered_units(units, mappings)
    return sum(u.chunk_id in covered for u in necessary) / len(necessary)


def redundant_questions(mappings: Sequence[Mapping]) -> int:
    """|R|: answerable questions mapped to a unit (a list window counts as its own
    unit) that an earlier answerable question was already mapped to."""
    seen: set[tuple[int | None, int | None]] = set()
    redundant = 0
    for mapping in mappings:
        if not mapping.answerable:
            continue
        key = (mapping.chunk_id, mapping.window)
        redundant += key in seen
        seen.add(key)
    return redundant


def non_redundancy(mappings: Sequence[Mapping], variant: str = "paper") -> float:
    """1 − |R| / |Q| (``paper``: every question counts in |Q|) or 1 − |R| / |answerable|
    (``answerable``: the reference code). An empty set, or one with no answerable
    question, repeats nothing: 1.0."""
    if variant not in NON_REDUNDANCY_VARIANTS:
        raise ValueError(f"non-redundancy variant must be one of {NON_REDUNDANCY_VARIANTS}")
    counted = mappings if variant == "paper" else [m for m in mappings if m.answerable]
    if not counted:
        return 1.0
    return 1 - redundant_questions(mappings) / len(counted)


def shannon(labels: Sequence[str]) -> float:
    """Entropy in bits of the label distribution."""
    counts = Counter(labels)
    total = len(labels)
    return -sum(c / total * math.log2(c / total) for c in counts.values()) if total else 0.0


def balanced_entropy(questions: Sequence[str], n_classes: int | None = None) -> float:
    """Balanced structural entropy of ``questions``; ``n_classes`` defaults to every
    possible template class (the paper's |C|)."""
    if not questions:
        return 0.0
    labels = [template(q) for q in questions]
    classes = n_classes if n_classes is not None else len(TEMPLATE_CLASSES)
    weighted = shannon(labels) * (len(questions) / classes)
    return weighted / (weighted + classes)


def structural_entropy(mappings: Sequence[Mapping], variant: str = "paper") -> float:
    """``paper``: all questions, |C| = every class; ``observed``: answerable questions,
    |C| = classes observed among them (the reference code)."""
    if variant == "paper":
        return balanced_entropy([m.question for m in mappings])
    if variant != "observed":
        raise ValueError(f"entropy variant must be one of {ENTROPY_VARIANTS}")
    answerable = [m.question for m in mappings if m.answerable]
    observed = len({template(q) for q in answerable})
    return balanced_entropy(answerable, observed) if observed else 0.0
