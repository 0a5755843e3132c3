"""How the library run layer (``maieutic.run``) reads and writes critical questions:
generation reads interventions without labels and writes the benchmark's submission
layout, one file per run, each with its ``.meta.json`` record."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from maieutic.data.json_stream import object_from
from maieutic.engines.corpus import CorpusStore
from maieutic.generate.protocol import GenerationRun
from maieutic.tasks.cqs.corpus import stream_cq_dataset
from maieutic.tasks.cqs.data import CQDataset, load_cq_dataset
from maieutic.tasks.cqs.outcomes import ItemOutcome, submission_entries
from maieutic.tasks.io import GeneratedPart, RecordContext, TaskIO


class CQsIO(TaskIO):
    """Critical questions: a labelled dataset, one submission file each."""

    streams = True

    def read_generation_input(self, task: Any, path: str | Path) -> CQDataset:
        """The interventions to generate for (labels not needed)."""
        return load_cq_dataset(path, require_labels=False)

    def first(self, data: CQDataset, n: int) -> CQDataset:
        """The first ``n`` interventions."""
        return dataclasses.replace(data, interventions=dict(list(data.interventions.items())[:n]))

    def items(self, data: CQDataset) -> dict[str, Any]:
        """The interventions by id."""
        return data.interventions

    def with_items(self, data: CQDataset, items: dict[str, Any]) -> CQDataset:
        """The dataset holding ``items`` only."""
        return dataclasses.replace(data, interventions=dict(items), warnings=[])

    def failed_outcomes(
        self, generator: Any, key: str, item: Any, *, reason: str
    ) -> list[ItemOutcome]:
        """A "Missing CQs" outcome for an intervention whose generation raised."""
        return [ItemOutcome(intervention_id=key, questions=None, reason=reason)]

    def stream_input(
        self, task: Any, path: str | Path, store: CorpusStore, *, limit: int | None
    ) -> CQDataset:
        """The interventions read one at a time into ``store`` (a corpus run)."""
        return stream_cq_dataset(path, store, limit=limit)

    def parts(
        self, run: GenerationRun, data: CQDataset, context: RecordContext
    ) -> list[GeneratedPart]:
        """The submission and its record (as ``maieutic generate cqs`` writes them);
        a corpus run's are streamed from its store as they are written."""
        outcomes = run.outcomes
        details = {
            "run": context.run_index + 1,
            "n_interventions": len(outcomes),
            "notes": object_from(
                outcomes,
                lambda: ((o.intervention_id, o.note) for o in outcomes if getattr(o, "note", None)),
            ),
            "rejected": object_from(
                outcomes,
                lambda: ((o.intervention_id, o.rejected) for o in outcomes if _rejected(o)),
            ),
            "candidates": object_from(
                outcomes, lambda: ((o.intervention_id, o.candidates) for o in outcomes)
            ),
            # questions an offline generator added (--fill-from): not the model's
            "filled": object_from(
                outcomes,
                lambda: (
                    (o.intervention_id, o.filled) for o in outcomes if getattr(o, "filled", None)
                ),
            ),
        }
        failed = object_from(
            outcomes, lambda: ((o.intervention_id, o.reason) for o in outcomes if o.failed)
        )
        record = context.record(run, details, warnings=run.warnings, failed=failed)
        name = f"run{context.run_index + 1}" if context.n_runs > 1 else ""
        output = object_from(outcomes, lambda: submission_entries(outcomes))
        return [GeneratedPart(name, output, record)]


def _rejected(outcome: Any) -> Any:
    return getattr(outcome, "rejected", None)


IO = CQsIO()
