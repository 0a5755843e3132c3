"""Multi-label type scores: hand-worked values in both modes, with and without the None
class, and the released predictions' figures checked by a plain re-count."""

from __future__ import annotations

import csv

import pytest

from maieutic.tasks.focus.classification import classification_scores, predicted_types
from maieutic.tasks.focus.data import load_gold, load_predictions
from maieutic.tasks.focus.type_labels import FocusItem, SpanLabel


def item(category: str, *types: str) -> FocusItem:
    return FocusItem(
        id="x",
        argument="An argument.",
        category=category,
        labels=tuple(SpanLabel(type=t, text="An") for t in types),
    )


PAIRS = [
    (item("clarity", "VAT", "OG"), item("clarity", "VAT", "BS")),
    (item("assumptions"), item("assumptions", "IE")),
    (item("reasons_evidence", "LE"), item("reasons_evidence", "LE")),
]


def test_open_mode_hand_worked():
    # TP: VAT, LE; FP: BS, IE; FN: OG, NONE (the second argument has no gold type)
    scores = classification_scores(PAIRS, "open")["with_none"]
    assert scores["micro"] == pytest.approx({"precision": 0.5, "recall": 0.5, "f1": 0.5})
    # macro over all eleven classes: only VAT and LE score (F1 = 1 each)
    assert scores["macro"]["f1"] == pytest.approx(2 / 11)
    assert scores["per_class"]["BS"]["f1"] == 0 and scores["per_class"]["VAT"]["f1"] == 1


def test_category_mode_drops_types_outside_the_category():
    assert predicted_types(PAIRS[0][1], "clarity", "category") == {"VAT"}
    assert predicted_types(item("clarity", "BS"), "clarity", "category") == {"NONE"}
    scores = classification_scores(PAIRS, "category")
    # TP: VAT, LE; FP: IE; FN: OG, NONE
    with_none = scores["with_none"]["micro"]
    assert with_none["precision"] == pytest.approx(2 / 3)
    assert with_none["recall"] == pytest.approx(2 / 4)
    assert with_none["f1"] == pytest.approx(4 / 7)
    # without the None class the missed NONE is no longer a false negative
    without = scores["without_none"]
    assert without["micro"]["f1"] == pytest.approx(2 / 3)
    assert without["macro"]["f1"] == pytest.approx(2 / 10)


def test_none_beside_a_type_counts_as_both():
    assert predicted_types(item("clarity", "VAT", "NONE"), "clarity", "category") == {"VAT", "NONE"}


def _recount(path, mode):
    """An independent count from the raw CSV cells (no maieutic code)."""
    category_types = {
        "alternate_viewpoints_perspectives": {"Other Stakeholder Perspective", "Temporal Contrast"},
        "clarity": {"Vague or Ambiguous Terms", "Overgeneralized Statement"},
        "assumptions": {"Implicit Existence", "Bias and Subjectivity"},
        "reasons_evidence": {"Lacks Evidence", "Weak Evidence"},
        "implication_consequences": {"Questionable Cause-Effect Relationship", "Causality Flipped"},
    }
    tp = fp = fn = 0
    with open(path, encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            gold = {row["FSQType1"].strip(), row["FSQType2"].strip()} - {""} or {
                "None of the Above"
            }
            pred = {row["Predicted_Type1"].strip(), row["Predicted_Type2"].strip()} - {""}
            if mode == "category":
                pred &= category_types[row["category"]] | {"None of the Above"}
            pred = pred or {"None of the Above"}
            tp += len(gold & pred)
            fp += len(pred - gold)
            fn += len(gold - pred)
    return 2 * tp / (2 * tp + fp + fn)


@pytest.mark.parametrize("mode", ["open", "category"])
@pytest.mark.parametrize("name", ["dev_pred_gpt4.csv", "dev_pred_gpt35.csv"])
def test_released_predictions_micro_f1_matches_a_recount(focus_dir, name, mode):
    gold = load_gold(focus_dir / "dev_gold.csv")
    predicted = load_predictions(focus_dir / name)
    pairs = [(gold.items[k], predicted.items[k]) for k in gold.items]
    micro = classification_scores(pairs, mode)["with_none"]["micro"]["f1"]
    assert micro == pytest.approx(_recount(focus_dir / name, mode), abs=1e-12)


def test_released_gpt4_figures(focus_dir):
    """The figures the README reports (checked above by a recount for micro-F1)."""
    gold = load_gold(focus_dir / "dev_gold.csv")
    gpt4 = load_predictions(focus_dir / "dev_pred_gpt4.csv")
    pairs = [(gold.items[k], gpt4.items[k]) for k in gold.items]
    category = classification_scores(pairs, "category")["with_none"]
    open_ = classification_scores(pairs, "open")["with_none"]
    assert round(category["macro"]["f1"], 4) == 0.3095
    assert round(category["micro"]["f1"], 4) == 0.4118
    assert round(open_["macro"]["f1"], 4) == 0.1377
    assert round(open_["micro"]["f1"], 4) == 0.2096
