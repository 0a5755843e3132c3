"""Is a GGUF file whole? Read from its header alone, before any runtime loads it.

A GGUF file is a header (metadata, then where each tensor lies and its shape and type)
and the tensors' data. A file cut short (an unfinished download or copy) keeps a
header that says how long the file must be: reading that header takes milliseconds,
where a runtime that meets the short file fails after seconds (llama.cpp: "data is not
within the file bounds"; transformers after dequantising: "cannot reshape array").
Only ``struct`` and ``mmap`` are needed: no runtime, no ``gguf`` package.
"""

from __future__ import annotations

import mmap
import struct
from pathlib import Path
from typing import Any

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


MAX_ENTRIES = 1 << 20
"""Metadata entries, and tensors, a header may claim (real models: dozens of entries,
at most tens of thousands of tensors): past it the file is refused as damaged, so a
hostile count over a long file cannot keep the check looping for minutes."""
# the fewest bytes one item takes: a metadata entry (key length, type, a 1-byte value),
# a tensor's entry (name length, dimension count, type, offset), a string (its length)
MIN_ENTRY, MIN_TENSOR, MIN_STRING = 8 + 4 + 1, 8 + 4 + 4 + 8, 8


MAX_DIMS = 4
"""A tensor's dimensions at most (ggml's GGML_MAX_DIMS; llama.cpp refuses more)."""


class _Header:
    """The header of a GGUF file, read from its start through a read-only memory map
    (nothing is read into memory but the few bytes looked at; a vocabulary's 10⁵
    strings are stepped over in milliseconds). Every length is checked against what is
    left of the file before it is used: a hostile header's 2**64 - 1 would otherwise be
    an OverflowError or a MemoryError."""

    def __init__(self, view: Any) -> None:
        self.view = view
        self.size = len(view)
        self.at = 0

    def left(self) -> int:
        return self.size - self.at

    def read(self, size: int) -> bytes:
        self.skip(size)
        return bytes(self.view[self.at - size : self.at])

    def skip(self, size: int) -> None:
        if size > self.left():
            raise Incomplete
        self.at += size

    def unpack(self, fmt: str) -> Any:
        width = struct.calcsize("<" + fmt)
        self.skip(width)
        return struct.unpack_from("<" + fmt, self.view, self.at - width)[0]

    def count(self, least_bytes: int, *, cap: int | None = None, what: str = "") -> int:
        """A count of items of at least ``least_bytes`` each: more than the rest of
        the file can hold is a file cut short (or a hostile count)."""
        found = self.unpack("Q")
        if cap is not None and found > cap:
            raise NotGGUF(f"its header claims {found:,} {what} (damaged?)")
        if found * least_bytes > self.left():
            raise Incomplete
        return int(found)

    def string(self, *, keep: bool) -> bytes:
        size = self.unpack("Q")
        if keep:
            return self.read(size)
        self.skip(size)
        return b""

    def value(self, kind: int) -> Any:
        if kind in SCALARS:
            return self.unpack(SCALARS[kind])
        if kind == STRING:
            return self.string(keep=False)
        if kind == ARRAY:
            item = self.unpack("I")
            if item in SCALARS:  # skipped whole
                width = struct.calcsize(SCALARS[item])
                self.skip(self.count(width) * width)
            elif item in (STRING, ARRAY):
                for _ in range(self.count(MIN_STRING if item == STRING else 4 + 8)):
                    self.value(item)
            else:
                raise NotGGUF(f"unknown metadata type {item}")
            return None
        raise NotGGUF(f"unknown metadata type {kind}")


def required_size(path: Path) -> int | None:
    """The bytes the header of the GGUF file ``path`` says it holds (None when a tensor
    type is not known here). Raises ``Incomplete`` when the header itself is cut short,
    ``NotGGUF`` when the file is not GGUF."""
    with open(path, "rb") as f:
        if f.read(4) != MAGIC:
            raise NotGGUF("it does not start as a GGUF file does")
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
            view = memoryview(mapped)
            try:
                return _required_size(_Header(view))
            finally:
                view.release()


def _required_size(header: _Header) -> int | None:
    header.skip(len(MAGIC))
    version = header.unpack("I")
    if version < 2:
        raise NotGGUF(f"GGUF version {version} is too old")
    tensors = header.count(0, cap=MAX_ENTRIES, what="tensors")
    entries = header.count(MIN_ENTRY, cap=MAX_ENTRIES, what="metadata entries")
    if tensors * MIN_TENSOR > header.left():
        raise Incomplete
    alignment = DEFAULT_ALIGNMENT
    for _ in range(entries):
        key = header.string(keep=True)
        value = header.value(header.unpack("I"))
        if key == b"general.alignment" and isinstance(value, int) and value > 0:
            alignment = value
    end, known = 0, True
    for _ in range(tensors):
        header.string(keep=False)
        dims = header.unpack("I")
        if dims > MAX_DIMS:
            raise NotGGUF(f"a tensor claims {dims:,} dimensions (ggml allows {MAX_DIMS})")
        shape = [header.unpack("Q") for _ in range(dims)]
        kind, offset = header.unpack("I"), header.unpack("Q")
        if kind not in BLOCKS:
            known = False
            continue
        count = 1
        for dim in shape:
            count *= dim
        per_block, block_bytes = BLOCKS[kind]
        end = max(end, offset + -(-count // per_block) * block_bytes)
    start = -(-header.at // alignment) * alignment
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
