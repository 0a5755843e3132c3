"""Comparing two builds of a learned scorer: what the recipe fixes exactly, what
training computes in floats within a tolerance (BLAS and CPUs round differently, so
float bytes are never hashed or compared with ``==`` across machines)."""

from __future__ import annotations

import numpy as np

from maieutic.scorers.model import RECIPE_FIELDS

WEIGHT_TOLERANCE = 1e-5
"""The largest difference a rebuild may show in an array, as a share of the array's
largest value. Measured on the shipped usefulness judge: a rebuild on another CPU
differs by at most 3.3e-7 (``coef``; ``mean`` 1.0e-8, ``intercept`` 1.7e-8, the
threshold 1.8e-8); the same recipe with ``--c 0.101`` instead of 0.1 differs by 7.3e-3
(``coef``) and 9.5e-4 (``intercept``)."""


def weight_gap(ours: np.ndarray, theirs: np.ndarray) -> float:
    """The largest difference, as a share of ``theirs``' largest value."""
    return float(np.abs(ours - theirs).max() / np.abs(theirs).max())


def assert_same_build(rebuilt, shipped) -> None:
    """The manifests' recipe sections, classes and n-gram terms equal exactly; the
    weights, idf and threshold equal within ``WEIGHT_TOLERANCE``."""
    for section in RECIPE_FIELDS:
        assert rebuilt.manifest[section] == shipped.manifest[section], section
    assert rebuilt.model.classes == shipped.model.classes
    assert rebuilt.recipe_identity() == shipped.recipe_identity()
    pairs = {
        name: (getattr(rebuilt.model, name), getattr(shipped.model, name))
        for name in ("mean", "scale", "coef", "intercept")
    }
    if shipped.ngrams is not None:
        assert rebuilt.ngrams.terms == shipped.ngrams.terms
        pairs["idf"] = (rebuilt.ngrams.idf, shipped.ngrams.idf)
    pairs["threshold"] = (np.array([rebuilt.threshold]), np.array([shipped.threshold]))
    for name, (ours, theirs) in pairs.items():
        assert ours.shape == theirs.shape, name
        assert weight_gap(ours, theirs) <= WEIGHT_TOLERANCE, name
