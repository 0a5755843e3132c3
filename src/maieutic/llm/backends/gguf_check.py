"""Is a GGUF file whole? Read from its header alone, before any runtime loads it.

A GGUF file is a header (metadata, then where each tensor lies and its shape and type)
and the tensors' data. A file cut short (an unfinished download or copy) keeps a
header that says how long the file must be: reading that header takes milliseconds,
where a runtime that meets the short file fails after seconds (llama.cpp: "data is not
within the file bounds"; transformers after dequantising: "cannot reshape array").
Only the ``struct`` module is needed: no runtime, no ``gguf`` package.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path
from typing import BinaryIO

MAGIC = b"GGUF"
DEFAULT_ALIGNMENT = 32
# ggml tensor types: (elements per block, bytes per block); a type not listed here
# (a newer one) leaves the file's length unchecked, never refused
BLOCKS = {
    0: (1, 4),
    1: (1, 2),
    2: (32, 18),
    3: (32, 20),
    6: (32, 22),
    7: (32, 24),
    8: (32, 34),
    9: (32, 40),
    10: (256, 84),
    11: (256, 110),
    12: (256, 144),
    13: (256, 176),
    14: (256, 210),
    15: (256, 292),
    16: (256, 66),
    17: (256, 74),
    18: (256, 98),
    19: (256, 50),
    20: (32, 18),
    21: (256, 110),
    22: (256, 82),
    23: (256, 136),
    24: (1, 1),
    25: (1, 2),
    26: (1, 4),
    27: (1, 8),
    28: (1, 8),
    29: (256, 56),
    30: (1, 2),
    34: (256, 54),
    35: (256, 66),
    39: (32, 17),
}
# metadata value types: struct format of the fixed-size ones; 8 is a string, 9 an array
SCALARS = dict(zip((0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12), "BbHhIif?Qqd", strict=True))
STRING, ARRAY = 8, 9


class Incomplete(Exception):
    """The file ends before its header says it does."""


class NotGGUF(Exception):
    """The file is not a GGUF file."""


def _read(f: BinaryIO, size: int) -> bytes:
    # a length is checked against what is left of the file before anything is read: a
    # hostile header's 2**64 - 1 would otherwise be an OverflowError or a MemoryError
    if size > os.fstat(f.fileno()).st_size - f.tell():
        raise Incomplete
    data = f.read(size)
    if len(data) != size:
        raise Incomplete
    return data


def _unpack(f: BinaryIO, fmt: str):
    return struct.unpack("<" + fmt, _read(f, struct.calcsize(fmt)))[0]


def _string(f: BinaryIO) -> bytes:
    return _read(f, _unpack(f, "Q"))


def _value(f: BinaryIO, kind: int):
    if kind in SCALARS:
        return _unpack(f, SCALARS[kind])
    if kind == STRING:
        return _string(f)
    if kind == ARRAY:
        item, count = _unpack(f, "I"), _unpack(f, "Q")
        if item in SCALARS:  # skipped whole: a vocabulary holds 10⁵ entries
            _read(f, count * struct.calcsize(SCALARS[item]))
        else:
            for _ in range(count):
                _value(f, item)
        return None
    raise NotGGUF(f"unknown metadata type {kind}")


def required_size(path: Path) -> int | None:
    """The bytes the header of the GGUF file ``path`` says it holds (None when a tensor
    type is not known here). Raises ``Incomplete`` when the header itself is cut short,
    ``NotGGUF`` when the file is not GGUF."""
    with open(path, "rb") as f:
        if f.read(4) != MAGIC:
            raise NotGGUF("it does not start as a GGUF file does")
        version, tensors, entries = _unpack(f, "I"), _unpack(f, "Q"), _unpack(f, "Q")
        if version < 2:
            raise NotGGUF(f"GGUF version {version} is too old")
        alignment = DEFAULT_ALIGNMENT
        for _ in range(entries):
            key, kind = _string(f), _unpack(f, "I")
            value = _value(f, kind)
            if key == b"general.alignment" and isinstance(value, int) and value > 0:
                alignment = value
        end, known = 0, True
        for _ in range(tensors):
            _string(f)
            dims = [_unpack(f, "Q") for _ in range(_unpack(f, "I"))]
            kind, offset = _unpack(f, "I"), _unpack(f, "Q")
            if kind not in BLOCKS:
                known = False
                continue
            count = 1
            for dim in dims:
                count *= dim
            per_block, block_bytes = BLOCKS[kind]
            end = max(end, offset + -(-count // per_block) * block_bytes)
        start = -(-f.tell() // alignment) * alignment
    return start + end if known else None


def check_gguf(path: Path) -> str | None:
    """What is wrong with the GGUF file ``path``, said after its name ("is incomplete:
    …"), or None when its length is what its header says."""
    size = path.stat().st_size
    try:
        needed = required_size(path)
    except Incomplete:
        return f"is incomplete: it ends inside its header, at {size:,} bytes (cut short?)"
    except NotGGUF as exc:
        return f"is not a GGUF model file: {exc}"
    if needed is not None and size < needed:
        return (
            f"is incomplete: {size:,} of the {needed:,} bytes its header describes "
            "(cut short, as by an unfinished download or copy)"
        )
    return None
