"""The objects every part of the FOCUS task shares: a typed span, an argument with its
labels, and a set of arguments (gold data or a system's predictions)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from maieutic.data.flags import Flag
from maieutic.tasks.focus.typology import NONE_ID

UNTYPED = ""
"""The type of a span given without a type (released files have a few): it predicts no
class but keeps its slot for positional span scores."""


@dataclass(frozen=True, kw_only=True)
class SpanLabel:
    """One weakness type with the span of the argument it targets."""

    type: str
    """The type id of the typology (``OSP`` … ``WE``, ``NONE``)."""
    text: str
    """The span as given in the file (metrics use it as given, as the released scores do)."""
    start: int | None = None
    """Character offsets of the closest exact substring of the argument (None when the
    span could not be found in it)."""
    end: int | None = None
    annotator: str | None = None
    """None for the gold (or predicted) label; ``A1``… for one annotator's label."""
    slot: int | None = None
    """1 or 2: the column pair of the released CSV layout it came from."""
    question: str | None = None
    """The Socratic question built from it, when there is one."""

    def to_json(self) -> dict:
        """The native JSONL form of the label."""
        out: dict = {"type": self.type, "span": self.text, "start": self.start, "end": self.end}
        for key in ("annotator", "slot", "question"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


@dataclass(frozen=True, kw_only=True)
class FocusItem:
    """An argument with its labels (gold, or a system's predictions)."""

    id: str
    argument: str
    category: str | None
    labels: tuple[SpanLabel, ...] = ()
    """The gold (majority) or predicted labels; none means None of the Above."""
    annotations: tuple[SpanLabel, ...] = ()
    """Each annotator's labels (with ``annotator`` set), when known."""
    topic: str | None = None

    def type_set(self) -> frozenset[str]:
        """The labelled types; ``{"NONE"}`` when there is none. None of the Above given
        beside other types stays in the set, as a multi-label binarizer counts it."""
        types = frozenset(label.type for label in self.labels if label.type != UNTYPED)
        return types or frozenset({NONE_ID})

    def annotators(self) -> list[str]:
        """The annotators with labels on this item, in order of first appearance."""
        return list(dict.fromkeys(a.annotator for a in self.annotations if a.annotator))


@dataclass(kw_only=True)
class FocusSet:
    """Arguments keyed by id: a gold dataset or one system's predictions."""

    items: dict[str, FocusItem]
    source: str = "<memory>"
    name: str = "focus"
    flags: list[Flag] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    layout: str = "jsonl"
    """``csv`` (the released layout) or ``jsonl`` (maieutic's native format)."""

    def __len__(self) -> int:
        return len(self.items)

    @property
    def n_references(self) -> int:
        """Number of arguments (for signatures)."""
        return len(self.items)

    def fingerprint(self) -> str:
        """A content hash: equal for the same data read from CSV or JSONL (ids, texts,
        categories, every label with its span and annotator)."""
        canonical = [fingerprint_element(item) for _, item in sorted(self.items.items())]
        blob = json.dumps(canonical, ensure_ascii=False, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(blob.encode("utf-8")).hexdigest()


def fingerprint_element(item: FocusItem) -> list:
    """One argument's part of the fingerprint (plain JSON)."""
    labels = sorted([x.type, x.text, x.annotator or ""] for x in (*item.labels, *item.annotations))
    return [item.id, item.argument, item.category, labels]
