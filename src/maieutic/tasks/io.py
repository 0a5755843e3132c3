"""The generation I/O a task may adapt, under its former name: it lives in
``maieutic.core.task_io`` (the core contract); task code written against this name
keeps working."""

from maieutic.core.task_io import *  # noqa: F403 (the same names, under another path)
from maieutic.core.task_io import __all__  # noqa: F401
