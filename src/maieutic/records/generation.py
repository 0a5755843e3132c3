"""The generation record: the ``.meta.json`` written beside every generated file.

One record for every task. The fields every generator writes are declared; what a
task adds (the number of items, notes, rejected candidates, a scenario, flags…) stays
in ``details``, written after them under its own names. ``failed`` is a map from item
id to reason, or a list of ``{"index", "failure"}`` where items have no id.

Version 2 was written by four commands that disagreed: one of them wrote no ``task``.
Version 3 always names the task; a version-2 file without one takes the task of the
generator that made it (its spec names it).
"""

from __future__ import annotations

from typing import Any

from maieutic.records.base import Record, optional, record
from maieutic.registry import Spec


@record
class GenerationRecord(Record):
    """``maieutic.generation/3``: what produced a generated file, and how it went."""

    FORMAT = "maieutic.generation/3"
    OLDER = ("maieutic.generation/2",)
    WRITTEN_BY = "maieutic generate <task> (beside the output, as NAME.meta.json)"
    NOT_RESULTS = (
        "the record of a generation run (.meta.json): evaluate the submission beside it "
        "and report the results file"
    )

    task: str
    signature: dict[str, Any]
    signature_string: str
    generator: Spec
    provenance: dict[str, Any] | None = optional()
    model_calls: dict[str, int] | None = optional()
    """{"made", "cache_hits"}."""
    warnings: list[str] | None = optional()
    failed: dict[str, Any] | list[Any] | None = optional()

    def to_json(self) -> dict[str, Any]:
        """The record as written, credentials in URLs hidden in the settings it keeps: a
        signature may carry ``--base-url`` as given, ``?api_key=…`` and all."""
        from maieutic.provenance import redact_credentials

        out = super().to_json()
        for name in ("signature", "signature_string", "generator", "provenance"):
            if name in out:
                out[name] = redact_credentials(out[name])
        return out

    @property
    def details(self) -> dict[str, Any]:
        """What the task adds to the record (the fields not declared here)."""
        return self.extra_fields

    @classmethod
    def migrate(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A version-2 record as version 3: the task named (the generator's when the
        record does not name one)."""
        rest = {k: v for k, v in data.items() if k not in ("format", "task")}
        task = data.get("task")
        if task is None and isinstance(data.get("generator"), dict):
            task = data["generator"].get("task")
        return {"format": cls.FORMAT, "task": task, **rest}
