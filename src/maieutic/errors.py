"""Error types that the command line turns into one clear line and an exit code.

``DataError`` (exit 2) means the user's input is wrong: a malformed file, a missing
field, a bad option value. ``RunError`` (exit 1) means the input was fine but the
run failed: a model could not be loaded, a server could not be reached.
"""

from __future__ import annotations


class MaieuticError(Exception):
    """Base class for errors reported to the user without a traceback."""

    exit_code = 1

    def __init__(self, message: str, where: str | None = None) -> None:
        self.where = where
        self.message = message
        super().__init__(f"{where}: {message}" if where else message)


class DataError(MaieuticError):
    """Bad input data or usage: exit code 2."""

    exit_code = 2


class RunError(MaieuticError):
    """A runtime failure (model, server, disk): exit code 1."""

    exit_code = 1
