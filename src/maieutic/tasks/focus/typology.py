"""The FOCUS typology: eleven weakness types, five categories of two types each, and the
question template of each type (package data, ``typology.json``).

Type names reach us in many spellings (model output, the paper's tables, trailing
spaces and question marks); ``Typology.resolve`` maps each to the type's id or returns
``None`` so that the caller can report it. It never guesses beyond a close spelling.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

NONE_ID = "NONE"
"""The 'None of the Above' type: no other type applies (span "Null")."""

NULL_SPAN = "Null"
"""The span the guidelines give to 'None of the Above'."""

_DATA = Path(__file__).with_name("typology.json")


@dataclass(frozen=True, kw_only=True)
class WeaknessType:
    """One type of the typology."""

    id: str
    name: str
    """The spelling of the released data, e.g. ``Other Stakeholder Perspective``."""
    category: str | None
    definition: str
    template: str | None
    """The question with a ``{span}`` blank (None for 'None of the Above')."""
    aliases: tuple[str, ...]

    def question(self, span: str) -> str | None:
        """The template with ``span`` in the blank, in quotation marks: the span stays
        word for word (a reader sees exactly what is questioned) and a clause that
        starts with a capital still reads as part of the question. Trailing
        punctuation of the span is dropped."""
        if self.template is None:
            return None
        return self.template.format(span=f"“{span.strip().rstrip('.,;:!?').strip()}”")


@dataclass(frozen=True, kw_only=True)
class Category:
    """An argument's category: it fixes the argument's two type slots."""

    id: str
    short: str
    """The abbreviation in the per-annotator column names (``A1_impli_F``)."""
    name: str
    types: tuple[str, str]


def _key(name: str) -> str:
    """A spelling reduced to what distinguishes types: case, spacing, dashes, '&',
    quotes and trailing punctuation do not."""
    text = name.strip().strip("\"'`*[]()").lower().replace("&", " and ")
    text = re.sub(r"[\u2010-\u2015/_-]+", " ", text)
    text = re.sub(r"[^a-z0-9 ]+", "", text)
    return re.sub(r"\s+", " ", text).strip()


class Typology:
    """The types and categories, with name resolution."""

    def __init__(self, types: list[WeaknessType], categories: list[Category]) -> None:
        self.types = {t.id: t for t in types}
        self.categories = {c.id: c for c in categories}
        self._by_key: dict[str, str] = {}
        for t in types:
            for spelling in (t.id, t.name, *t.aliases):
                self._by_key.setdefault(_key(spelling), t.id)

    @property
    def ids(self) -> list[str]:
        """All type ids in typology order (None of the Above last)."""
        return list(self.types)

    @property
    def weakness_ids(self) -> list[str]:
        """The ten weakness types (without None of the Above)."""
        return [i for i in self.types if i != NONE_ID]

    def name(self, type_id: str) -> str:
        """The released spelling of a type id."""
        return self.types[type_id].name

    def category_types(self, category: str | None) -> tuple[str, ...]:
        """The two type ids of ``category`` (all ten when it is unknown or None)."""
        found = self.categories.get(category or "")
        return found.types if found else tuple(self.weakness_ids)

    def category_by_short(self, short: str) -> Category | None:
        """The category whose column abbreviation is ``short`` (``impli``)."""
        for category in self.categories.values():
            if short.lower() in (category.short, category.id):
                return category
        return None

    def resolve(self, name: str) -> str | None:
        """The type id for a spelling, or None when it names no type.

        Exact spellings and aliases first; then a name that starts with a known one
        ("Vague or Ambiguous Terms for General Public?"); then a close misspelling
        (difflib ratio ≥ 0.88), which catches "Overgeneralizd" but not a different type.
        """
        key = _key(name)
        if not key:
            return None
        if key in self._by_key:
            return self._by_key[key]
        for known in sorted(self._by_key, key=len, reverse=True):
            if len(known) >= 8 and key.startswith(known + " "):
                return self._by_key[known]
        close = difflib.get_close_matches(key, list(self._by_key), n=1, cutoff=0.88)
        return self._by_key[close[0]] if close else None


@cache
def typology() -> Typology:
    """The typology shipped with maieutic."""
    data = json.loads(_DATA.read_text(encoding="utf-8"))
    types = [
        WeaknessType(
            id=t["id"],
            name=t["name"],
            category=t["category"],
            definition=t["definition"],
            template=t["template"],
            aliases=tuple(t["aliases"]),
        )
        for t in data["types"]
    ]
    categories = [
        Category(id=c["id"], short=c["short"], name=c["name"], types=tuple(c["types"]))
        for c in data["categories"]
    ]
    return Typology(types, categories)
