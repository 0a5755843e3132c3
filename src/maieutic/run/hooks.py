"""The task-I/O contract, beside ``Task`` in ``maieutic.core.task_io``; its names stay
importable from here for plug-ins written against the run layer."""

from maieutic.core.task_io import *  # noqa: F403 (the same names, under another path)
from maieutic.core.task_io import __all__  # noqa: F401
