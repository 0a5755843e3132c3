"""The task-I/O contract, now beside ``Task`` in ``maieutic.tasks.io``; these names stay
importable from here for plug-ins written against the run layer."""

from maieutic.tasks.io import (
    DEFAULT_IO,
    GeneratedPart,
    RecordContext,
    TaskIO,
    meta_path,
    task_io,
)

__all__ = ["DEFAULT_IO", "GeneratedPart", "RecordContext", "TaskIO", "meta_path", "task_io"]
