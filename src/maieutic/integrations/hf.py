"""A benchmark as a Hugging Face ``datasets.Dataset`` (``pip install
'maieutic[datasets]'``), for people who build their own loop::

    from maieutic.integrations import hf

    rows = hf.load("cqs", split="validation", data="validation.json")
    rows[0]["user"]            # the prompt maieutic's llm generator sends
    rows.to_pandas()

Each row is one item as maieutic reads it (never a copy of the file), with the prompt
the task's llm generator sends and the labelled references. Score what a model writes
with ``maieutic.evaluate`` or ``CQsBenchmark.evaluate``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from maieutic.errors import DataError
from maieutic.integrations.bridge import BENCHMARKS, CQsBenchmark


def load(
    task: str,
    *,
    split: str | None = None,
    data: str | Path | None = None,
    strategy: str = "detailed",
) -> Any:
    """The items of ``task`` read from ``data`` (a released file, or a folder and a
    ``split``; default: the sample bundled with maieutic) as a ``datasets.Dataset``
    whose split is ``split``: columns ``id``, ``text``, ``system``, ``user`` (the
    prompt), ``dataset``, ``schemes`` and ``references`` (``id``, ``cq``, ``label``)."""
    import datasets

    if task not in BENCHMARKS:
        raise DataError(f"unknown task {task!r} (known: {', '.join(BENCHMARKS)})")
    bench = CQsBenchmark(data, split=split, strategy=strategy)
    rows = []
    for prompt in bench.prompts():
        item = bench.dataset.interventions[prompt.id]
        rows.append(
            {
                "id": prompt.id,
                "text": prompt.text,
                "system": prompt.system,
                "user": prompt.user,
                "dataset": item.dataset,
                "schemes": list(item.schemes),
                "references": [{"id": q.id, "cq": q.cq, "label": q.label or ""} for q in item.cqs],
            }
        )
    named = datasets.NamedSplit(split) if split else datasets.Split.TEST
    return datasets.Dataset.from_list(rows, split=named)
