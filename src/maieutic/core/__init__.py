"""The core contract every task fulfils (``Task``, ``maieutic.core.task``) and the
file I/O of generation it may adapt (``TaskIO``, ``maieutic.core.task_io``). It sits
below every layer that uses tasks and names none of them (docs/architecture.md)."""

from maieutic.core.task import (
    ChecksSubmission,
    Column,
    OfResult,
    ReadsFile,
    Task,
    get_task,
)
from maieutic.core.task_io import (
    DEFAULT_IO,
    GeneratedPart,
    RecordContext,
    TaskIO,
    meta_path,
    task_io,
)

__all__ = [
    "DEFAULT_IO",
    "ChecksSubmission",
    "Column",
    "GeneratedPart",
    "OfResult",
    "ReadsFile",
    "RecordContext",
    "Task",
    "TaskIO",
    "get_task",
    "meta_path",
    "task_io",
]
