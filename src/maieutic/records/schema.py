"""Checking parsed JSON against a record's type hints, and turning records back to JSON.

A record declares its fields with ordinary type hints (``str``, ``float | None``,
``list[dict[str, Any]]``, ``Spec``, a nested record type); ``decode`` checks a parsed
value against one and builds the nested objects, raising a ``DataError`` whose one
line names the field by its JSON path (``results[1].evaluator: missing field 'kind'``).
``encode`` is the inverse. Plain JSON inside a field typed ``dict``/``Any`` is kept
exactly as read (same keys, same order), so a record written back is the file it
came from.
"""

from __future__ import annotations

import types
from typing import Any, Union, get_args, get_origin

from maieutic.errors import DataError
from maieutic.registry import Spec

_NAMES = {str: "a string", int: "an integer", float: "a number", bool: "a boolean"}


def json_type(value: Any) -> str:
    """A JSON-flavoured name of a parsed value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    return type(value).__name__


def describe(hint: Any) -> str:
    """What a type hint expects, in the words of ``json_type``."""
    origin = get_origin(hint)
    if origin in (Union, types.UnionType):
        return " or ".join(describe(a) for a in get_args(hint))
    if hint is type(None):
        return "null"
    if hint is list or origin is list:
        return "a list"
    if hint in _NAMES:
        return _NAMES[hint]
    return "an object"


def _fail(at: str, *, expected: str, value: Any, where: str | None) -> DataError:
    return DataError(f"{at}: expected {expected}, found {json_type(value)}", where=where)


def _scalar(value: Any, hint: type, at: str, *, where: str | None) -> Any:
    # JSON has one number type: an integral float field may be written as 1
    if isinstance(value, bool) and hint is not bool:
        raise _fail(at, expected=_NAMES[hint], value=value, where=where)
    ok = isinstance(value, int | float) if hint is float else isinstance(value, hint)
    if not ok:
        raise _fail(at, expected=_NAMES[hint], value=value, where=where)
    return value


def require_object(value: Any, at: str, where: str | None, *, names: tuple[str, ...] = ()) -> dict:
    """``value`` if it is an object with every key in ``names``, else a ``DataError``."""
    if not isinstance(value, dict):
        raise _fail(at, expected="an object", value=value, where=where)
    for name in names:
        if name not in value:
            raise DataError(f"{at}: missing field {name!r}", where=where)
    return value


def decode_spec(value: Any, at: str, where: str | None) -> Spec:
    """A component's ``Spec`` from its JSON (kind, task, name, args)."""
    require_object(value, at, where, names=("kind", "task", "name"))
    for name in ("kind", "task", "name"):
        decode(value[name], hint=str, at=f"{at}.{name}", where=where)
    decode(value.get("args", {}), hint=dict[str, Any], at=f"{at}.args", where=where)
    return Spec.from_json(value)


def _union(value: Any, *, hint: Any, at: str, where: str | None) -> Any:
    options = get_args(hint)
    if value is None and type(None) in options:
        return None
    for option in options:
        if option is type(None):
            continue
        try:
            return decode(value, hint=option, at=at, where=where)
        except DataError:
            continue
    raise _fail(at, expected=describe(hint), value=value, where=where)


def decode(value: Any, *, hint: Any, at: str, where: str | None = None) -> Any:
    """``value`` checked against ``hint``; specs and nested records built from their JSON."""
    origin = get_origin(hint)
    if hint is Any:
        return value
    if origin in (Union, types.UnionType):
        return _union(value, hint=hint, at=at, where=where)
    if hint is list or origin is list:
        if not isinstance(value, list):
            raise _fail(at, expected="a list", value=value, where=where)
        (item,) = get_args(hint) or (Any,)
        if item is Any:
            return value
        return [decode(v, hint=item, at=f"{at}[{i}]", where=where) for i, v in enumerate(value)]
    if hint is dict or origin is dict:
        require_object(value, at, where)
        _, item = get_args(hint) or (str, Any)
        if item is Any:
            return value
        return {k: decode(v, hint=item, at=f"{at}.{k}", where=where) for k, v in value.items()}
    if hint in _NAMES:
        return _scalar(value, hint, at, where=where)
    if hint is Spec:
        return decode_spec(value, at, where)
    if hasattr(hint, "from_json"):
        require_object(value, at, where)
        return hint.from_json(value, at=at, where=where)
    raise TypeError(f"no JSON reading for {hint!r} ({at})")


def encode(value: Any) -> Any:
    """The JSON form of a field's value (records and specs through their ``to_json``)."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return value
