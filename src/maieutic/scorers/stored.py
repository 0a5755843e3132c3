"""Reading the two files of a saved scorer (``manifest.json``, ``model.npz``), checked
before use: every way a file can be damaged — not JSON, wrong fields, a broken archive,
arrays holding Python objects, non-finite numbers, shapes that do not fit together —
is one ``DataError`` line that says to train the scorer again. Nothing here unpickles."""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from maieutic.data.files import read_bytes
from maieutic.errors import DataError
from maieutic.records.schema import json_type
from maieutic.records.scorer import ScorerManifest

_NUMBERS = ("mean", "scale", "coef", "intercept", "ngram_idf")
_TEXTS = ("classes", "ngram_terms")
_REQUIRED = ("mean", "scale", "coef", "intercept", "classes")
_AGAIN = "train the scorer again"
# what reading a damaged .npz can raise: a broken zip, a bad array header (parsed with
# ast.literal_eval), data cut short, a size too large to allocate, a missing member
_UNREADABLE = (
    OSError,
    EOFError,
    ValueError,
    KeyError,
    SyntaxError,
    MemoryError,
    zipfile.BadZipFile,
    zlib.error,
)


def read_manifest(path: Path) -> dict[str, Any]:
    """The parsed manifest, checked against ``ScorerManifest`` (field names and types)."""
    where = str(path)
    try:
        # the one reader: a regular file within the size limit (never a FIFO)
        manifest = json.loads(read_bytes(path).decode("utf-8"))
    except UnicodeDecodeError:
        raise DataError(f"not UTF-8 text, so not a manifest: {_AGAIN}", where=where) from None
    except ValueError as exc:  # JSONDecodeError, or an integer of 5,000 digits
        reason = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise DataError(f"not valid JSON ({reason})", where=where) from None
    except RecursionError:
        raise DataError("JSON nested too deeply to be a scorer manifest", where=where) from None
    except OSError as exc:
        raise DataError(f"cannot be read ({exc.strerror})", where=where) from None
    if not isinstance(manifest, dict):
        raise DataError(f"expected a JSON object, found {json_type(manifest)}", where=where)
    ScorerManifest.from_json(manifest, where)
    if not isinstance(manifest["training"].get("data_sha256"), str):
        raise DataError("missing field 'training.data_sha256' (a string)", where=where)
    return manifest


def _arrays(path: Path) -> dict[str, np.ndarray]:
    """The arrays of the archive at ``path`` that a scorer uses, by name."""
    data = read_bytes(path)  # a regular file within the size limit (never a FIFO)
    if data[:2] != b"PK":  # not a zip: np.load would offer to unpickle it
        raise DataError(f"not a NumPy .npz archive: {_AGAIN}", where=str(path))
    arrays = {}
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        for name in (*_NUMBERS, *_TEXTS):
            if name not in archive.files:
                continue
            try:
                arrays[name] = archive[name]
            except ValueError as exc:
                if "allow_pickle" not in str(exc):
                    raise
                raise DataError(
                    f"array {name!r} holds Python objects, which are never loaded: {_AGAIN}",
                    where=str(path),
                ) from None
    return arrays


def _check_arrays(arrays: dict[str, np.ndarray], where: str) -> None:
    """Every array the model needs, of the right kind, and shapes that fit together."""
    if missing := [n for n in _REQUIRED if n not in arrays]:
        raise DataError(f"missing array(s) {', '.join(missing)}: {_AGAIN}", where=where)
    for name, array in arrays.items():
        expected = "numbers" if name in _NUMBERS else "text"
        kind_ok = array.dtype.kind in ("fiu" if expected == "numbers" else "U")
        if not kind_ok or (expected == "numbers" and not np.isfinite(array).all()):
            raise DataError(
                f"array {name!r} has {array.dtype} values, expected finite {expected}: {_AGAIN}",
                where=where,
            )
    mean, coef, classes = arrays["mean"], arrays["coef"], arrays["classes"]
    rows = coef.shape[0] if coef.ndim == 2 else -1
    fits = (
        mean.ndim == 1
        and arrays["scale"].shape == mean.shape
        and coef.shape == (rows, mean.shape[0])
        and arrays["intercept"].shape == (rows,)
        and classes.shape == ((2,) if rows == 1 else (rows,))
        and ("ngram_terms" in arrays) == ("ngram_idf" in arrays)
        and arrays.get("ngram_terms", mean[:0]).shape == arrays.get("ngram_idf", mean[:0]).shape
    )
    if not fits:
        shapes = ", ".join(f"{n} {a.shape}" for n, a in arrays.items())
        raise DataError(f"array shapes do not fit together ({shapes}): {_AGAIN}", where=where)


def read_arrays(path: Path) -> dict[str, np.ndarray]:
    """The checked arrays of ``model.npz`` by name, or one ``DataError`` line."""
    try:
        arrays = _arrays(path)
    except _UNREADABLE as exc:
        reason = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        raise DataError(f"damaged or unreadable ({reason}): {_AGAIN}", where=str(path)) from None
    _check_arrays(arrays, str(path))
    return arrays
