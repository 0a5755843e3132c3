"""Task objects (dataclasses) as plain JSON and back, for shard files and Ray rows.

Generators and their outcomes are the tasks' own dataclasses; a shard must hold them
in a form a person can read and a resumed run can rebuild. Each dataclass is written
with its class (``{"__class__": "module:Name", ...fields}``) and rebuilt only when that
class is a dataclass of maieutic (or of a task registered with it), never from any
other module, so a shard cannot make the reader import arbitrary code.
"""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from maieutic.errors import DataError

_CLASS = "__class__"
_TUPLE = "__tuple__"


def to_plain(value: Any) -> Any:
    """``value`` with every dataclass and tuple turned into JSON-safe dicts."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        kind = type(value)
        fields = {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {_CLASS: f"{kind.__module__}:{kind.__qualname__}", **fields}
    if isinstance(value, tuple):
        return {_TUPLE: [to_plain(v) for v in value]}
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: to_plain(v) for k, v in value.items()}
    return value


def from_plain(value: Any, allowed: tuple[str, ...] = ("maieutic.",)) -> Any:
    """The objects ``to_plain`` wrote. ``allowed``: module prefixes a class may come
    from (a task outside maieutic adds its own package)."""
    if isinstance(value, list):
        return [from_plain(v, allowed) for v in value]
    if not isinstance(value, dict):
        return value
    if _TUPLE in value and len(value) == 1:
        return tuple(from_plain(v, allowed) for v in value[_TUPLE])
    if _CLASS not in value:
        return {k: from_plain(v, allowed) for k, v in value.items()}
    module, _, name = str(value[_CLASS]).partition(":")
    if not module.startswith(allowed):
        raise DataError(f"a shard names class {value[_CLASS]!r}, outside {allowed}")
    kind: Any = importlib.import_module(module)
    for part in name.split("."):
        kind = getattr(kind, part)
    if not dataclasses.is_dataclass(kind):
        raise DataError(f"a shard names {value[_CLASS]!r}, which is no dataclass")
    fields = {f.name for f in dataclasses.fields(kind) if f.init}
    args = {k: from_plain(v, allowed) for k, v in value.items() if k in fields}
    return kind(**args)
