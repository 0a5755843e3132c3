"""Multi-label scores of predicted weakness types against gold types.

As the FOCUS paper computes them (section 4.3: scikit-learn's ``MultiLabelBinarizer``):
each argument's gold and predicted type sets are binarised over a fixed class list and
scored with micro and macro precision, recall and F1, plus F1 per class. An argument
with no type counts as the class None of the Above.

Two modes:

- ``open``: every predicted type counts (any of the eleven);
- ``category``: the annotation protocol — an argument was only annotated for the two
  types of its category, so predictions outside them are dropped before scoring (an
  argument left with none becomes None of the Above).

Each is reported with the None class and without it (ten classes; an argument whose
set is None of the Above then has no positive class).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from maieutic.tasks.focus.type_labels import FocusItem
from maieutic.tasks.focus.typology import NONE_ID, typology

MODES = ("open", "category")


def predicted_types(item: FocusItem, category: str | None, mode: str) -> frozenset[str]:
    """The predicted type set as scored in ``mode`` (``category`` keeps only the two
    types of the gold argument's category)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
    types = set(item.type_set())
    if mode == "category" and category:
        # None of the Above is the protocol's own answer ("neither type"), so it stays
        types &= {*typology().category_types(category), NONE_ID}
    return frozenset(types) or frozenset({NONE_ID})


def _scores(
    gold: Sequence[frozenset[str]], *, predicted: Sequence[frozenset[str]], classes: list[str]
) -> dict:
    # scikit-learn takes about a second to import: only when scores are computed, so
    # that `--help` and every bad-input refusal stay quick
    from sklearn.metrics import precision_recall_fscore_support
    from sklearn.preprocessing import MultiLabelBinarizer

    binarizer = MultiLabelBinarizer(classes=classes)
    with warnings.catch_warnings():
        # without the None class, sets holding it have a class outside the list:
        # that is the point (they have no positive class), not something to warn about
        warnings.simplefilter("ignore", UserWarning)
        y_true = binarizer.fit_transform(gold)
        y_pred = binarizer.transform(predicted)
    out: dict = {}
    for average in ("micro", "macro"):
        p, r, f, _ = precision_recall_fscore_support(
            y_true, y_pred, average=average, zero_division=0
        )
        out[average] = {"precision": float(p), "recall": float(r), "f1": float(f)}
    p, r, f, support = precision_recall_fscore_support(
        y_true, y_pred, average=None, zero_division=0
    )
    out["per_class"] = {
        c: {
            "precision": float(p[i]),
            "recall": float(r[i]),
            "f1": float(f[i]),
            "support": int(support[i]),
        }
        for i, c in enumerate(classes)
    }
    out["n_predicted"] = {
        c: int(v) for c, v in zip(classes, np.asarray(y_pred).sum(axis=0), strict=True)
    }
    return out


def classification_scores(
    pairs: Sequence[tuple[FocusItem, FocusItem]], mode: str
) -> dict[str, dict]:
    """Scores of (gold, predicted) item pairs in ``mode``: ``{"with_none": …,
    "without_none": …}``, each with ``micro``/``macro`` P/R/F1 and ``per_class``."""
    gold = [g.type_set() for g, _ in pairs]
    predicted = [predicted_types(p, g.category, mode) for g, p in pairs]
    classes = typology().ids
    return {
        "with_none": _scores(gold, predicted=predicted, classes=classes),
        "without_none": _scores(
            gold, predicted=predicted, classes=[c for c in classes if c != NONE_ID]
        ),
    }
