"""The options every framework route takes, and the benchmark they build (once per
process for the same options: the evaluator's model is loaded once)."""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from maieutic.errors import DataError
from maieutic.integrations.bridge import DEFAULT_EVALUATOR, CQsBenchmark

OPTION_NAMES = ("data", "split", "strategy", "evaluator", "threshold")
"""What a run names: the data file (or a folder and a split), the prompt strategy, the
evaluator and its threshold."""


def benchmark_from(options: Mapping[str, Any]) -> CQsBenchmark:
    """The benchmark for ``options`` (unknown names refused)."""
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise DataError(
            f"unknown option(s) {', '.join(unknown)} (known: {', '.join(OPTION_NAMES)})"
        )
    return _cached(json.dumps(dict(options), sort_keys=True))


@functools.cache
def _cached(encoded: str) -> CQsBenchmark:
    options = json.loads(encoded)
    threshold = options.get("threshold")
    return CQsBenchmark(
        options.get("data"),
        split=options.get("split"),
        strategy=options.get("strategy", "detailed"),
        evaluator=options.get("evaluator", DEFAULT_EVALUATOR),
        evaluator_options={} if threshold is None else {"threshold": float(threshold)},
    )
