"""How the library run layer (``maieutic.run``) reads and writes FOCUS: generation reads
arguments (labels not needed) and writes the predictions as JSONL and as the released
CSV layout side by side, with one ``.meta.json`` record."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from maieutic.data.files import write_together
from maieutic.data.json_stream import json_chunks, object_from
from maieutic.engines.corpus import CorpusStore
from maieutic.generate.protocol import GenerationRun
from maieutic.tasks.focus.corpus import stream_focus_arguments, streams
from maieutic.tasks.focus.data import load_arguments
from maieutic.tasks.focus.generate import FocusOutcome, to_prediction_set
from maieutic.tasks.focus.type_labels import FocusSet
from maieutic.tasks.focus.write import jsonl_pieces, released_csv_pieces
from maieutic.tasks.io import GeneratedPart, RecordContext, TaskIO, meta_path

PREDICTIONS = "predictions"
"""The name of generated predictions until they are written (then: the file's stem)."""


def output_paths(out: str | Path) -> tuple[Path, Path]:
    """The JSONL and CSV files written for ``out`` (one named, the other beside it)."""
    path = Path(out)
    if path.suffix.lower() == ".csv":
        return path.with_suffix(".jsonl"), path
    return path, path.with_suffix(".csv")


class FocusIO(TaskIO):
    """FOCUS: gold arguments, one prediction file per submission."""

    def read_generation_input(self, task: Any, path: str | Path) -> FocusSet:
        """The arguments to generate for (a category restricts the types to its two)."""
        return load_arguments(path)

    streams = True

    def stream_input(
        self, task: Any, path: str | Path, store: CorpusStore, *, limit: int | None
    ) -> FocusSet | None:
        """Native files read one argument at a time into ``store`` (a corpus run);
        None for the released CSV, which is read whole."""
        return stream_focus_arguments(path, store, limit=limit) if streams(path) else None

    def first(self, data: FocusSet, n: int) -> FocusSet:
        """The first ``n`` arguments."""
        return dataclasses.replace(data, items=dict(list(data.items.items())[:n]))

    def items(self, data: FocusSet) -> dict[str, Any]:
        """The arguments by id."""
        return data.items

    def with_items(self, data: FocusSet, items: dict[str, Any]) -> FocusSet:
        """The set holding ``items`` only."""
        return dataclasses.replace(data, items=dict(items), flags=[], warnings=[])

    def failed_outcomes(
        self, generator: Any, key: str, item: Any, *, reason: str
    ) -> list[FocusOutcome]:
        """No labels (None of the Above) for an argument whose generation raised."""
        return [FocusOutcome(id=key, labels=[], failure=reason)]

    def parts(
        self, run: GenerationRun, data: FocusSet, context: RecordContext
    ) -> list[GeneratedPart]:
        """The prediction set and its record (as ``maieutic generate focus`` writes them)."""
        outcomes = run.outcomes
        details = {
            "n_arguments": len(outcomes),
            "outcomes": object_from(outcomes, lambda: ((o.id, o.to_json()) for o in outcomes)),
        }
        failed = object_from(outcomes, lambda: ((o.id, o.failure) for o in outcomes if o.failed))
        record = context.record(run, details, warnings=run.warnings, failed=failed)
        name = f"run{context.run_index + 1}" if context.n_runs > 1 else ""
        return [GeneratedPart(name, to_prediction_set(run.outcomes, data, PREDICTIONS), record)]

    def write(self, generation: Any, out: Path, **options: Any) -> list[Path]:
        """``OUT.jsonl`` (native), ``OUT.csv`` (released layout, gold columns kept from
        the input) and ``OUT.meta.json``, per run (``OUT-runK…`` for several)."""
        written = []
        for part, run in zip(generation.parts, generation.runs, strict=True):
            target = out.with_name(f"{out.stem}-{part.name}{out.suffix}") if part.name else out
            jsonl, csv_path = output_paths(target)
            predictions = to_prediction_set(run.outcomes, generation.data, jsonl.stem)
            csv_text = released_csv_pieces(predictions, predictions=True, gold=generation.data)
            # the three files together: a full disk leaves none of them half-done; in
            # pieces, since a corpus run's predictions are read from its store
            write_together(
                {
                    jsonl: jsonl_pieces(predictions),
                    csv_path: csv_text,
                    meta_path(jsonl): json_chunks(part.record),
                }
            )
            written += [jsonl, csv_path]
        return written


IO = FocusIO()
