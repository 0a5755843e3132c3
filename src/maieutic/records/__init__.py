"""Typed records for every file maieutic writes (the table: docs/formats.md).

Each file with a ``format`` field has a record class here: a dataclass naming its
format and version, with ``to_json()`` (the dict written, keys in the writer's order)
and ``from_json(data)`` (checked against the field types; a ``DataError`` names the
field; files of an older version are migrated on read). ``FORMATS`` maps every
current format name to its class, ``READABLE`` every name that is read (older ones
too); ``read_record`` / ``load_record`` pick the class from the file's ``format``.

Formats that belong to one task are declared in that task's folder
(``maieutic.tasks.<task>.records``), and the results file beside the code that writes
it (``maieutic.evaluate.results_record``: it holds ``EvalResult``s, so declaring it
here would have this package and ``maieutic.evaluate`` import each other); they are
found on first use, and their classes are also reachable here by name
(``maieutic.records.<ClassName>``).

The files without a ``format`` field are the benchmarks' own layouts (submissions,
predictions, answers), typed by each task's data module; docs/formats.md lists them.
"""

from __future__ import annotations

from maieutic.records.base import (
    FORMATS,
    READABLE,
    Record,
    load_record,
    load_task_records,
    optional,
    read_record,
    record,
    record_class,
)
from maieutic.records.comparison import ComparisonRecord
from maieutic.records.generation import GenerationRecord
from maieutic.records.scorer import ScorerManifest

__all__ = [
    "FORMATS",
    "READABLE",
    "ComparisonRecord",
    "GenerationRecord",
    "Record",
    "ScorerManifest",
    "load_record",
    "load_task_records",
    "optional",
    "read_record",
    "record",
    "record_class",
]


def __getattr__(name: str):
    """A task's record class by name (loaded from the task folders on first use)."""
    load_task_records()
    for cls in READABLE.values():
        if cls.__name__ == name:
            return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
