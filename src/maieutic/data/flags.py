"""Flags: problems in an input that the benchmark's own tools accept and score.

A flag never stops a run by default: the item is scored exactly as the field's reference
tool scores it, and the flag is printed as a warning and listed in the results file.
``--strict`` turns every flag into an error (exit 2) before any model work starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from maieutic.errors import DataError


@dataclass(frozen=True, kw_only=True)
class Flag:
    """One tolerated problem: where it is, a short code, and what it means."""

    file: str
    """The file the value is in."""
    at: str
    """The JSON path of the value, e.g. ``"A_1".questions[2].text``."""
    code: str
    """A stable identifier, e.g. ``empty-question`` (for filtering and tests)."""
    message: str
    item: str | None = None
    """The id of the item (e.g. the intervention) the flag belongs to, if any."""

    def __str__(self) -> str:
        return f"{self.file}: {self.at}: {self.message}"

    @property
    def short(self) -> str:
        """The flag without its file name."""
        return f"{self.at}: {self.message}"

    def to_json(self) -> dict[str, str | None]:
        """The flag as written to results files."""
        return {
            "file": self.file,
            "at": self.at,
            "code": self.code,
            "message": self.message,
            "item": self.item,
        }


def refuse_flags(flags: Sequence[Flag]) -> None:
    """The ``--strict`` rule: raise a ``DataError`` for the first flag, counting the rest."""
    if not flags:
        return
    first = flags[0]
    more = f" (and {len(flags) - 1} more flagged problem(s))" if len(flags) > 1 else ""
    raise DataError(
        f"{first.short}{more}; --strict refuses what is otherwise scored and flagged",
        where=first.file,
    )
