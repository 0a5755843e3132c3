"""The generation I/O a task may adapt, under its former name: it lives in
``maieutic.core.task_io`` (the core contract); task code written against this name
keeps working."""

from maieutic.core.task_io import (
    DEFAULT_IO,
    GeneratedPart,
    ReadsReference,
    RecordContext,
    TaskIO,
    meta_path,
    task_io,
)

__all__ = [
    "DEFAULT_IO",
    "GeneratedPart",
    "ReadsReference",
    "RecordContext",
    "TaskIO",
    "meta_path",
    "task_io",
]
