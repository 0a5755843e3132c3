"""A benchmark as a Hugging Face ``datasets.Dataset`` (``pip install
'maieutic[datasets]'``), for people who build their own loop::

    from maieutic.integrations import hf

    rows = hf.load("cqs", split="validation", data="validation.json")
    rows[0]["user"]            # the prompt maieutic's llm generator sends
    rows.to_pandas()

One row per item, read by maieutic's reader (never a copy of the file): its id and
text, the chat request ``maieutic generate TASK --generator llm`` sends for it, and the
item as maieutic reads it (with its labels, where the file has them) as JSON. Score
what a model writes with ``maieutic.evaluate``, or hand the replies to
``maieutic.integrations.bridge.Benchmark``.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from maieutic.integrations.extras import require
from maieutic.integrations.options import benchmark_from


def _plain(item: Any) -> Any:
    if dataclasses.is_dataclass(item) and not isinstance(item, type):
        return {f.name: _plain(getattr(item, f.name)) for f in dataclasses.fields(item)}
    if isinstance(item, (list, tuple)):
        return [_plain(v) for v in item]
    if isinstance(item, dict):
        return {str(k): _plain(v) for k, v in item.items()}
    return item


def load(
    task: str,
    *,
    split: str | None = None,
    data: str | Path | None = None,
    **options: Any,
) -> Any:
    """The items of ``task`` read from ``data`` (a released file, or a folder and a
    ``split``; default: the task's sample bundled with maieutic) as a
    ``datasets.Dataset`` whose split is ``split``. Columns: ``id``, ``text``,
    ``system`` and ``user`` (the first request), ``requests`` (every request, as JSON:
    AURA sends one a passage) and ``item`` (the item as maieutic reads it, as JSON).
    ``options`` are the run's other options (``strategy``, ``scenario``…)."""
    datasets = require("datasets", extra="datasets", needed_by="maieutic.integrations.hf")
    bench = benchmark_from(
        task, {"data": None if data is None else str(data), "split": split, **options}
    )
    items = bench.io.items(bench.data) if bench.spec.split else {}
    rows = []
    for item in bench.requests():
        first = dict(item.messages)
        rows.append(
            {
                "id": item.id,
                "text": item.text,
                "system": first.get("system", ""),
                "user": first.get("user", ""),
                "requests": json.dumps([list(map(list, r)) for r in item.requests]),
                "item": json.dumps(_plain(items.get(item.id)), ensure_ascii=False),
            }
        )
    named = datasets.NamedSplit(split) if split else datasets.Split.TEST
    return datasets.Dataset.from_list(rows, split=named)
