"""Annotator agreement per type: hand-worked values, statsmodels as the oracle for
Fleiss' kappa on the released files, and the figures the README reports."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

from maieutic.tasks.focus.annotation_agreement import agreement_for_type, type_agreement
from maieutic.tasks.focus.annotators import attach_annotators
from maieutic.tasks.focus.data import load_gold
from maieutic.tasks.focus.type_labels import FocusItem, SpanLabel
from maieutic.tasks.focus.typology import typology


def judged(*annotators: tuple[str, str]) -> FocusItem:
    """An argument of the clarity category; each annotator gives (who, span) for OG."""
    labels = tuple(
        SpanLabel(type="OG", text=span, annotator=who, slot=2) for who, span in annotators
    )
    # every annotator appears on every item through a VAT label, so "no OG" is visible
    present = tuple(
        SpanLabel(type="VAT", text="x", annotator=w, slot=1) for w in ("A1", "A2", "A3")
    )
    return FocusItem(
        id="i",
        argument="All cats are grey at night.",
        category="clarity",
        labels=(),
        annotations=labels + present,
    )


ITEMS = [
    judged(("A1", "All cats are grey"), ("A2", "All cats"), ("A3", "All cats are grey")),  # 3 yes
    judged(("A1", "grey at night")),  # 1 yes, 2 no: two agree
    judged(),  # all no
    judged(("A1", "All cats"), ("A2", "All cats")),  # 2 yes, 1 no
]


def test_hand_worked_agreement():
    result = agreement_for_type(ITEMS, "OG")
    # observed: 1, 0.5, 1, 0.5 -> 0.75
    assert result.observed == pytest.approx(0.75)
    # mean pairwise agreement: 1, 1/3, 1, 1/3 -> 2/3; PABAK = 2 * 2/3 - 1
    assert result.pabak == pytest.approx(1 / 3)
    # A1-A2 agree on items 1, 3, 4 and differ on 2
    assert result.pairwise["A1-A2"]["observed"] == pytest.approx(0.75)
    # spans: item 1 pairs (J = 1/2, 1, 1/2) -> 2/3; item 4 -> 1; mean 5/6
    assert result.spans["jaccard"] == pytest.approx(5 / 6)
    assert result.n_span_items == 2


def test_fleiss_matches_statsmodels_by_hand():
    votes = np.array([[1, 1, 1], [1, 0, 0], [0, 0, 0], [1, 1, 0]])
    table = np.stack([(votes == 0).sum(1), (votes == 1).sum(1)], axis=1)
    assert agreement_for_type(ITEMS, "OG").fleiss == pytest.approx(sm_fleiss(table))


def test_undefined_kappa_is_none_with_a_reason():
    everyone_yes = [judged(("A1", "a"), ("A2", "a"), ("A3", "a"))] * 3
    result = agreement_for_type(everyone_yes, "OG")
    assert result.observed == 1.0 and result.pabak == 1.0
    assert result.fleiss is None and "fleiss" in result.undefined


def test_released_development_agreement(focus_dir):
    gold = attach_annotators(load_gold(focus_dir / "dev_gold.csv"), [focus_dir])
    report = type_agreement(list(gold.items.values()))
    assert {r.n_items for r in report.values()} == {28}
    category_of = {t: c.id for c in typology().categories.values() for t in c.types}
    for type_id, row in report.items():
        votes = np.array(
            [
                [
                    any(a.type == type_id and a.annotator == w for a in item.annotations)
                    for w in ("A1", "A2", "A3")
                ]
                for item in gold.items.values()
                if item.category == category_of[type_id]
            ],
            dtype=int,
        )
        table = np.stack([(votes == 0).sum(1), (votes == 1).sum(1)], axis=1)
        assert row.fleiss == pytest.approx(sm_fleiss(table), abs=1e-12)
    # the figures the README compares with the paper's Tables 2 and 3 (dev)
    observed = {k: round(v.observed, 3) for k, v in report.items()}
    assert observed == {
        "OSP": 0.929,
        "TC": 0.679,
        "VAT": 0.714,
        "OG": 0.804,
        "IE": 0.696,
        "BS": 0.821,
        "LE": 0.821,
        "WE": 0.804,
        "QCE": 0.839,
        "CF": 0.929,
    }
    assert round(report["OSP"].spans["jaccard"], 3) == 0.545
