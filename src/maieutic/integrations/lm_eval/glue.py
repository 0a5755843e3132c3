"""The functions maieutic's lm-eval task files name: the documents, the per-document
result and the aggregates.

A document is one chat request maieutic sends (one per item for most tasks; one per
passage for AURA). lm-eval calls ``dataset`` with the run's ``--metadata`` (JSON);
every document carries the task and those options, so ``process_results``, which sees
only the document and the reply, keeps the pair, and each aggregate replays every
pair of the run through the task's generator and evaluator
(``maieutic.integrations.bridge``): the figures ``maieutic generate`` then ``maieutic
evaluate`` give for the same replies. The run is scored once, whichever figure asks
first. ``--log_samples`` files keep the pairs, for ``maieutic import lm-eval-samples``.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from maieutic.errors import MaieuticError
from maieutic.integrations.bridge import SPECS
from maieutic.integrations.options import OPTION_NAMES, benchmark_from
from maieutic.integrations.replay import Messages

PAYLOAD = "maieutic"
"""The key under which a per-document result keeps the request and the reply."""


def documents(task: str, metadata: dict[str, Any]) -> dict[str, Any]:
    """The documents of ``task``: one per request, with its item, its messages and the
    run's options. Keys of ``metadata`` that are not maieutic's (lm-eval adds its own,
    such as ``version`` and the model's arguments) are ignored."""
    import datasets

    options = {k: metadata[k] for k in OPTION_NAMES if metadata.get(k) is not None}
    try:
        bench = benchmark_from(task, options)
        items = bench.requests()
    except MaieuticError as error:
        if _under_lm_evals_command():
            # lm-eval's command prints a traceback for any exception from a task's
            # dataset: the line alone, and the command's usage/data status, as inspect
            # shows a task's input problem
            print(f"maieutic: {error}", file=sys.stderr)
            raise SystemExit(2) from None
        raise ValueError(f"maieutic: {error}") from None  # lm-eval used as a library
    rows = []
    for item in items:
        for messages in item.requests:
            system = [c for r, c in messages if r == "system"]
            user = [c for r, c in messages if r == "user"]
            if len(messages) != len(system) + len(user) or len(user) != 1 or len(system) > 1:
                raise ValueError(
                    f"maieutic: {task} sends a request lm-eval cannot carry (one system and "
                    "one user message are what a document holds)"
                )
            rows.append(
                {
                    "task": task,
                    "options": json.dumps(options, sort_keys=True),
                    "item": item.id,
                    "system": system[0] if system else "",
                    "user": user[0],
                    "messages": json.dumps(messages),
                }
            )
    return {"test": datasets.Dataset.from_list(rows)}


def _under_lm_evals_command() -> bool:
    # the `lm_eval` / `lm-eval` script, or `python -m lm_eval`
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    return Path(sys.argv[0]).name in ("lm_eval", "lm-eval") or (
        spec is not None and spec.name in ("lm_eval.__main__", "lm_eval")
    )


def dataset_of(task: str) -> Callable[..., dict[str, Any]]:
    """The ``custom_dataset`` function of ``task``'s YAML."""

    def dataset(**metadata: Any) -> dict[str, Any]:
        return documents(task, metadata)

    dataset.__doc__ = f"The {task} documents (see ``documents``)."
    return dataset


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """The request and its reply, under every figure of the task (each aggregate reads
    the whole run)."""
    payload = {
        "task": doc["task"],
        "options": doc["options"],
        "item": doc["item"],
        "messages": doc["messages"],
        "reply": results[0],
    }
    spec = SPECS[doc["task"]]
    return {name: payload for name in (spec.metric, *spec.figures)}


@functools.lru_cache(maxsize=8)
def _figures(
    task: str, *, options: str, pairs: tuple[tuple[Messages, str], ...]
) -> dict[str, float]:
    return benchmark_from(task, json.loads(options)).run_figures(dict(pairs))


def figure(name: str) -> Callable[[list[dict[str, Any]]], float]:
    """The aggregation of the figure ``name``: the run's replies scored at once."""

    def aggregate(items: list[dict[str, Any]]) -> float:
        first = items[0]
        pairs = tuple(
            (tuple(tuple(m) for m in json.loads(i["messages"])), i["reply"]) for i in items
        )
        return _figures(first["task"], options=first["options"], pairs=pairs)[name]

    aggregate.__doc__ = f"The run's {name} (``maieutic evaluate``'s figure)."
    return aggregate
