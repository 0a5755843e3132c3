"""The task-I/O contract, beside ``Task`` in ``maieutic.core.task_io``; these names stay
importable from here for plug-ins written against the run layer."""

from maieutic.core.task_io import (
    DEFAULT_IO,
    GeneratedPart,
    RecordContext,
    TaskIO,
    meta_path,
    task_io,
)

__all__ = ["DEFAULT_IO", "GeneratedPart", "RecordContext", "TaskIO", "meta_path", "task_io"]
