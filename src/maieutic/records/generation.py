"""The generation record: the ``.meta.json`` written beside every generated file.

One record for every task. The fields every generator writes are declared; what a
task adds (cqs: ``run``, ``n_interventions``, ``notes``, ``rejected``,
``candidates``; focus: ``n_arguments``, ``outcomes``; aura: ``passages``; compqa:
``scenario``, ``flags``) stays in ``details``, written after them under its own names.
``failed`` is a map from item id to reason (cqs, focus) or a list of
``{"index", "failure"}`` (compqa).

Version 2 was written by four commands that disagreed: the cqs one has no ``task``.
Version 3 always names the task; a version-2 file without one is a cqs record.
"""

from __future__ import annotations

from typing import Any

from maieutic.records.base import Record, optional, record
from maieutic.registry import Spec

LEGACY_TASK = "cqs"
"""The task of a version-2 generation record that names none (only cqs wrote those)."""


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

    @property
    def details(self) -> dict[str, Any]:
        """What the task adds to the record (the fields not declared here)."""
        return self.extra_fields

    @classmethod
    def migrate(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A version-2 record as version 3: the task named (cqs when it is not)."""
        rest = {k: v for k, v in data.items() if k not in ("format", "task")}
        return {"format": cls.FORMAT, "task": data.get("task", LEGACY_TASK), **rest}
