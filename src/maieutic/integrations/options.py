"""The options a framework run takes, turned into a benchmark (built once per process
for the same options: the evaluator's model is loaded once).

- ``data``: the released file, or a folder with ``split``; default: the sample
  bundled with maieutic;
- ``strategy``: the prompt, a strategy of the task's llm generator;
- ``evaluator`` and ``threshold``: maieutic's evaluator and its threshold;
- ``scenario`` (CompQA): which of the four prompts answers; ``granularity`` (AURA):
  passage, page or whole document per request.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from maieutic.errors import DataError
from maieutic.integrations.bridge import BENCHMARKS, SPECS, Benchmark

OPTION_NAMES = ("data", "split", "strategy", "evaluator", "threshold", "scenario", "granularity")
"""Every option any task takes (each task takes the ones its spec lists)."""


def benchmark_from(task: str, options: Mapping[str, Any]) -> Benchmark:
    """The benchmark of ``task`` for ``options`` (None values: not given). An option
    the task does not take is refused with the ones it takes."""
    if not isinstance(task, str) or task not in SPECS:
        raise DataError(f"unknown task {task!r} (known: {', '.join(BENCHMARKS)})")
    given = {k: v for k, v in options.items() if v is not None}
    unknown = sorted(set(given) - set(SPECS[task].options))
    if unknown:
        raise DataError(
            f"{task} takes no option {', '.join(unknown)} (it takes: "
            f"{', '.join(SPECS[task].options)})"
        )
    for name, value in given.items():
        _check_value(name, value)
    # a framework parses `-T data=2024` as a number: a name or a path is text
    given = {k: v if k == "threshold" else str(v) for k, v in given.items()}
    return _cached(task, encoded=json.dumps(given, sort_keys=True))


def _check_value(name: str, value: Any) -> None:
    """One line for an option of the wrong type: a framework hands its arguments over
    as it parsed them (``-T threshold=abc`` is the string ``abc``). An empty one is
    refused where it is used ("data is empty", "unknown evaluator ''")."""
    if name == "threshold":
        number = value
        if isinstance(value, str):
            try:
                number = float(value.strip()) if "_" not in value else None
            except ValueError:
                number = None
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            raise DataError(f"threshold: expected a number, got {value!r}")
        if number != number or number in (float("inf"), float("-inf")):
            raise DataError(f"threshold: expected a finite number, got {value!r}")
        return
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise DataError(f"{name}: expected a name or a path, got {value!r}")


@functools.cache
def _cached(task: str, *, encoded: str) -> Benchmark:
    options = json.loads(encoded)
    spec = SPECS[task]
    generator: dict[str, Any] = {}
    if "strategy" in options:
        strategy = options["strategy"]
        generator[spec.strategies or "strategy"] = (
            [strategy] if spec.strategies == "strategies" else strategy
        )
    if "scenario" in options:
        generator["scenarios"] = [str(options["scenario"])]
    if "granularity" in options:
        generator["granularity"] = options["granularity"]
    threshold = options.get("threshold")
    return Benchmark(
        task,
        data=options.get("data"),
        split=options.get("split"),
        generator_options=generator,
        evaluator=options.get("evaluator"),
        evaluator_options={} if threshold is None else {"threshold": float(threshold)},
    )
