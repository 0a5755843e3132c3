"""Argumentation schemes and their critical-question templates.

maieutic ships a compact library written by its developers (this task's
``samples/schemes.jsonl``: ``{"name", "aliases", "cq": [templates with {slots}]}``). The
benchmark's full scheme file (``walton_schemes.jsonl``, templates with ``<slots>``)
and its label mapping (``schemes_mapping.csv``) can be loaded instead.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

from maieutic.data.files import read_text
from maieutic.data.surrogates import refuse_in_json
from maieutic.errors import DataError
from maieutic.samples import sample_path

GENERIC = "Generic"
_NON_LABEL_COLUMNS = {
    "1st_level_classification",
    "2nd_level_classification",
    "MORE_DATA",
    "brief_informal_definition",
    "ejemplos",
    "ejemplos2",
    "walton_2012",
    "Total",
    "N",
    "schemes_json",
    "has_critical_questions?",
    "schemes_in_Walton2001?",
    "questions_in_Walton2001?",
    "notes",
    "",
}


@dataclass(frozen=True)
class Scheme:
    """A scheme's name and its critical-question templates."""

    name: str
    templates: tuple[str, ...]


def _norm(name: str) -> str:
    name = re.sub(r"^(ER)(?=[A-Z])", "", name.strip())
    name = re.sub(r"[^a-z]", "", name.lower())
    for prefix in ("argumentfrom", "argument", "from"):
        name = name.removeprefix(prefix)
    return name.removesuffix("argument")


class SchemeLibrary:
    """Looks up templates by the scheme labels found in the dataset."""

    def __init__(self, schemes: list[Scheme], aliases: dict[str, str], source: str) -> None:
        self.schemes = {s.name: s for s in schemes}
        self._by_norm = {_norm(s.name): s.name for s in schemes}
        self.aliases = aliases
        self.source = source

    def resolve(self, label: str) -> Scheme | None:
        """The scheme for a dataset label (exact, alias, or normalised name match)."""
        name = self.aliases.get(label, label)
        if name in self.schemes:
            return self.schemes[name]
        found = self._by_norm.get(_norm(name)) or self._by_norm.get(_norm(label))
        return self.schemes.get(found) if found else None

    def generic(self) -> Scheme | None:
        """Templates that fit any argument, used when no scheme matches."""
        return self.schemes.get(GENERIC)

    @classmethod
    def builtin(cls) -> SchemeLibrary:
        """The library bundled with maieutic."""
        path = sample_path("cqs/schemes.jsonl")
        schemes, aliases = [], {}
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            schemes.append(Scheme(record["name"], tuple(record["cq"])))
            aliases.update({a: record["name"] for a in record.get("aliases", [])})
        return cls(schemes, aliases, source="builtin")

    @classmethod
    def from_walton(
        cls, schemes_path: str | Path, mapping_path: str | Path | None
    ) -> SchemeLibrary:
        """The benchmark's scheme file, with dataset labels mapped by its CSV."""
        schemes = read_walton_schemes(Path(schemes_path))
        builtin_generic = cls.builtin().generic()
        if builtin_generic:
            schemes.append(builtin_generic)
        aliases = read_scheme_mapping(Path(mapping_path)) if mapping_path else {}
        return cls(schemes, aliases, source=str(schemes_path))


def read_walton_schemes(path: Path) -> list[Scheme]:
    """The schemes of a ``walton_schemes.jsonl`` file: one ``{"name", "cq"}`` per line.

    A file with no scheme is refused: generating from it would silently fall back to
    the generic templates for every argument.
    """
    schemes = []
    for lineno, line in enumerate(read_text(path).splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            refuse_in_json(line, record, f"{path}:{lineno}")
            schemes.append(Scheme(record["name"], tuple(record["cq"])))
        except (json.JSONDecodeError, KeyError, TypeError):
            raise DataError('expected {"name", "cq": [...]}', where=f"{path}:{lineno}") from None
    if not schemes:
        raise DataError('no schemes: expected one {"name", "cq": [...]} per line', where=str(path))
    return schemes


def read_scheme_mapping(path: Path) -> dict[str, str]:
    """Dataset scheme label -> scheme name, from the benchmark's ``schemes_mapping.csv``.

    Every label column of a row maps to the row's ``schemes_json`` name; without that
    column nothing would map, so the file is refused rather than silently ignored.
    """
    reader = csv.DictReader(io.StringIO(read_text(path), newline=""))
    aliases: dict[str, str] = {}
    try:
        if "schemes_json" not in (reader.fieldnames or []):
            raise DataError(
                "no 'schemes_json' column (the scheme name each row maps to)", where=str(path)
            )
        for row in reader:
            target = (row.get("schemes_json") or "").strip()
            if not target:
                continue
            for column, cell in row.items():
                if _is_label(column, cell):
                    aliases.setdefault(cell.strip(), target)
    except csv.Error as exc:
        where = f"{path}:{reader.line_num}"
        raise DataError(f"not a readable CSV file ({exc})", where=where) from None
    return aliases


def _is_label(column: str | None, cell: object) -> bool:
    # counts columns and the overflow of a long row (key None, a list) are not labels
    return (
        isinstance(column, str)
        and column not in _NON_LABEL_COLUMNS
        and isinstance(cell, str)
        and bool(cell)
        and not cell.strip().isdigit()
    )
