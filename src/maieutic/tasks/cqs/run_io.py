"""How the library run layer (``maieutic.run``) reads and writes critical questions:
generation reads interventions without labels and writes the benchmark's submission
layout, one file per run, each with its ``.meta.json`` record."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from maieutic.generate.protocol import GenerationRun
from maieutic.run.hooks import GeneratedPart, RecordContext, TaskIO
from maieutic.tasks.cqs.data import CQDataset, load_cq_dataset
from maieutic.tasks.cqs.generate import ItemOutcome, to_submission


class CQsIO(TaskIO):
    """Critical questions: a labelled dataset, one submission file each."""

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
        self, generator: Any, key: str, item: Any, reason: str
    ) -> list[ItemOutcome]:
        """A "Missing CQs" outcome for an intervention whose generation raised."""
        return [ItemOutcome(key, None, reason)]

    def parts(
        self, run: GenerationRun, data: CQDataset, context: RecordContext
    ) -> list[GeneratedPart]:
        """The submission and its record (as ``maieutic generate cqs`` writes them)."""
        details = {
            "run": context.run_index + 1,
            "n_interventions": len(run.outcomes),
            "notes": {o.intervention_id: o.note for o in run.outcomes if getattr(o, "note", None)},
            "rejected": {
                o.intervention_id: o.rejected for o in run.outcomes if getattr(o, "rejected", None)
            },
            "candidates": {o.intervention_id: o.candidates for o in run.outcomes},
        }
        failed = {o.intervention_id: o.reason for o in run.outcomes if o.failed}
        record = context.record(run, details, warnings=run.warnings, failed=failed)
        name = f"run{context.run_index + 1}" if context.n_runs > 1 else ""
        return [GeneratedPart(name, to_submission(run.outcomes), record)]


IO = CQsIO()
