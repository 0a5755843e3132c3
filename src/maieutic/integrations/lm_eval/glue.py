"""The functions maieutic's lm-eval task files name: the dataset, the per-document
score and the aggregate.

lm-eval calls ``dataset`` with the task's ``--metadata`` (JSON); every document carries
those options, so ``process_results``, which sees only the document and the reply,
finds the same benchmark (built once per process) and scores the reply with maieutic's
evaluator. The per-document result keeps the questions and labels, so ``--log_samples``
files can be read back by ``maieutic import lm-eval-samples``.
"""

from __future__ import annotations

import json
from typing import Any

from maieutic.errors import MaieuticError
from maieutic.integrations.options import OPTION_NAMES, benchmark_from


def dataset(**metadata: Any) -> dict[str, Any]:
    """The documents: one per item, with its prompt and the run's options. Keys of
    ``metadata`` that are not maieutic's (lm-eval adds its own, e.g. ``version``) are
    ignored."""
    import datasets

    options = {k: metadata[k] for k in OPTION_NAMES if metadata.get(k) is not None}
    try:
        bench = benchmark_from(options)
        prompts = bench.prompts()
    except MaieuticError as error:  # one line in lm-eval's report
        raise ValueError(f"maieutic: {error}") from None
    encoded = json.dumps(options, sort_keys=True)
    rows = [
        {"id": p.id, "text": p.text, "system": p.system, "user": p.user, "options": encoded}
        for p in prompts
    ]
    return {"test": datasets.Dataset.from_list(rows)}


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    """The reply's questions and the evaluator's verdict, under the metric's name."""
    bench = benchmark_from(json.loads(doc["options"]))
    verdict = bench.score_reply(doc["id"], reply=results[0])
    return {
        "overall": {
            "id": verdict.id,
            "value": verdict.value,
            "questions": verdict.questions,
            "labels": verdict.labels,
            "notes": verdict.notes,
            "signature": bench.signature(),
        }
    }


def overall(items: list[dict[str, Any]]) -> float:
    """The benchmark's overall score: the mean of the documents' Useful / 3 (a document
    the evaluator could not score is left out, as ``maieutic evaluate`` leaves it)."""
    values = [i["value"] for i in items if i["value"] is not None]
    return sum(values) / len(values) if values else float("nan")
