"""The base of every typed record, and the table of formats.

A record is a dataclass whose class names its format (``FORMAT``, name and version:
``maieutic.results/2``) and the older names it still reads (``OLDER``, migrated on read
by ``migrate``). ``to_json`` gives the dict written to the file, keys in field order,
``format`` first; ``from_json`` checks a parsed file against the field types and
raises a ``DataError`` naming the field. Top-level fields a record does not declare
are kept in ``extra_fields`` (and written back after the declared ones), so reading
and writing a file loses nothing; a field made with ``optional()`` is left out of
the JSON when it is None, as the writers leave it out when they have nothing for it.

``@record`` makes the class a keyword-only dataclass and enters it in ``FORMATS``
(current name to class) and ``READABLE`` (every name it reads to class).
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar, TypeVar, dataclass_transform, get_type_hints

from maieutic.errors import DataError
from maieutic.records.schema import decode, encode, json_type

FORMATS: dict[str, type[Record]] = {}
"""Every format maieutic writes (its current name and version) and its record class."""

READABLE: dict[str, type[Record]] = {}
"""Every format name a record reads: the current ones and the older ones it migrates."""

_OMIT = "omit_none"

R = TypeVar("R", bound="Record")


def optional(default: Any = None) -> Any:
    """A field that may be absent: None by default, and then left out of the JSON."""
    return field(default=default, metadata={_OMIT: True})


@dataclass(kw_only=True)
class Record:
    """A file maieutic writes, as a typed object."""

    FORMAT: ClassVar[str] = ""
    """The format name and version written to the file's ``format`` field."""
    OLDER: ClassVar[tuple[str, ...]] = ()
    """Earlier format names this record reads (``migrate`` maps them forward)."""
    WRITTEN_BY: ClassVar[str] = ""
    """The command that writes it (for documentation and messages)."""
    HOLDS_RESULTS: ClassVar[bool] = False
    """Whether the file holds figures a report can show (a generation record or a
    scorer's manifest does not)."""
    NOT_RESULTS: ClassVar[str] = ""
    """For a file that holds no results: what it is and what to give instead, for the
    message when it is given where results are expected."""

    extra_fields: dict[str, Any] = field(default_factory=dict, repr=False)
    """Top-level fields this version does not declare, kept so nothing read is lost."""

    @classmethod
    def declared(cls) -> list[dataclasses.Field]:
        """The fields written to the file, in their order (``format`` comes first)."""
        return [f for f in fields(cls) if f.name != "extra_fields"]

    @classmethod
    def required_fields(cls) -> tuple[str, ...]:
        """The top-level fields a file of this format must have."""
        return tuple(
            f.name
            for f in cls.declared()
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        )

    @classmethod
    def migrate(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A file in one of the ``OLDER`` formats as the current format reads it."""
        return {**data, "format": cls.FORMAT}

    @classmethod
    def from_json(cls: type[R], data: Any, where: str | None = None, *, at: str = "") -> R:
        """The record in parsed JSON ``data`` (a ``DataError`` naming the field if not)."""
        if not isinstance(data, dict):
            raise DataError(f"{at or 'file'}: expected an object, found {json_type(data)}", where)
        fmt = data.get("format")
        if fmt != cls.FORMAT:
            if fmt not in cls.OLDER:
                within = f"{at}: " if at else ""
                raise DataError(f"{within}format {fmt!r}, expected {cls.FORMAT!r}", where=where)
            data = cls.migrate(data)
        hints = get_type_hints(cls)
        values: dict[str, Any] = {}
        for f in cls.declared():
            path = f"{at}.{f.name}" if at else f.name
            if f.name in data:
                values[f.name] = decode(data[f.name], hint=hints[f.name], at=path, where=where)
            elif f.name in cls.required_fields():
                within = f"{at}: " if at else ""
                raise DataError(
                    f"{within}missing field {f.name!r} (format {cls.FORMAT})", where=where
                )
        known = {f.name for f in cls.declared()} | {"format"}
        extra = {k: v for k, v in data.items() if k not in known}
        return cls(**values, extra_fields=extra)

    def to_json(self) -> dict[str, Any]:
        """The dict written to the file."""
        out: dict[str, Any] = {"format": self.FORMAT}
        for f in self.declared():
            value = getattr(self, f.name)
            if value is None and f.metadata.get(_OMIT):
                continue
            out[f.name] = encode(value)
        out.update(self.extra_fields)
        return out


def _qualname(cls: type) -> str:
    # a module imported again (a test reloading a task) redefines the same class
    return f"{cls.__module__}.{cls.__qualname__}"


@dataclass_transform(kw_only_default=True)
def record(cls: type[R]) -> type[R]:
    """Make ``cls`` a keyword-only dataclass and enter its format in the tables (a
    type checker reads it as the dataclass it makes)."""
    cls = dataclass(kw_only=True)(cls)
    for name in (cls.FORMAT, *cls.OLDER):
        previous = READABLE.get(name)
        if previous is not None and _qualname(previous) != _qualname(cls):
            raise ValueError(f"format {name!r} is read by {READABLE[name].__name__} already")
        READABLE[name] = cls
    FORMATS[cls.FORMAT] = cls
    return cls


RECORD_MODULES = ("maieutic.evaluate.results_record", "maieutic.ask.record")
"""Formats declared outside this package and the task folders: the results file,
beside the code that writes it (it holds ``EvalResult``s), and the applications that
compose tasks (``maieutic ask --format json``)."""


def load_task_records() -> None:
    """Import the ``RECORD_MODULES`` and each task's ``records`` module (where a task
    declares its own formats), so that ``FORMATS`` and ``READABLE`` hold every format
    maieutic can read."""
    from maieutic.registry import task_modules

    for name in RECORD_MODULES:
        importlib.import_module(name)
    for module in task_modules().values():
        try:
            importlib.import_module(f"{module}.records")
        except ModuleNotFoundError as exc:
            if exc.name != f"{module}.records":  # a broken task module, not a missing one
                raise


def record_class(fmt: Any, where: str | None = None) -> type[Record]:
    """The record class that reads format ``fmt`` (a ``DataError`` for an unknown one)."""
    if fmt is None:
        raise DataError('no "format" field: not a file written by maieutic', where=where)
    if not isinstance(fmt, str):
        raise DataError(f'"format" must be a string, found {json_type(fmt)}', where=where)
    if fmt not in READABLE:
        load_task_records()
    if fmt not in READABLE:
        raise DataError(f"unknown format {fmt!r}", where=where)
    return READABLE[fmt]


def read_record(data: Any, where: str | None = None) -> Record:
    """The record in parsed JSON ``data``, of whichever format it says it is."""
    if not isinstance(data, dict):
        raise DataError(f"expected a JSON object, found {json_type(data)}", where=where)
    return record_class(data.get("format"), where).from_json(data, where)


def load_record(path: str | Path) -> Record:
    """The record in the file at ``path``."""
    from maieutic.data.files import read_keyed_records

    path = Path(path)
    if path.suffix.lower() != ".json":
        # a .jsonl name would be read line by line; every record file is one object
        raise DataError("expected a .json file written by maieutic", where=str(path))
    return read_record(read_keyed_records(path, "format"), str(path))
