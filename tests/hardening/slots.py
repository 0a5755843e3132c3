"""The file slots of a command, found from its click parameters, and the bad inputs.

A slot is an argument typed ``click.Path`` (not an output, like ``focus convert``'s
TARGET) or an option whose name means a file or a file-or-folder in
``maieutic.cli.option_meanings.MEANINGS`` (outputs left out). A table entry may name
more (``Call.extra_slots``): an argument that takes a file without a Path type (``ask``
SOURCE), or the options of a pass-through command (``train scorer``).
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import click

from maieutic.cli.option_meanings import FILE, MEANINGS, PATH, kind_of
from maieutic.cli.outputs import OUTPUT_FILES, OUTPUT_FOLDERS
from tests.hardening.valid_calls import FILES, Call, at_name

# what the commands write: the guard's own lists (maieutic.cli.outputs)
NOT_SLOTS = {*OUTPUT_FILES, *OUTPUT_FOLDERS}
OUTPUT_ARGUMENTS = {("focus convert", "target")}
OUTPUT_OPTIONS = OUTPUT_FILES
# output options that take one suffix only: an input is renamed to it before it is
# given as that output (else the probe would only meet the suffix check)
SUFFIX_BOUND = {"--plot": ".svg"}
TEXT_SUFFIXES = {".md", ".txt"}  # prose and bracket soup are valid text there

BAD_KINDS = (
    "prose", "empty", "deep-json", "binary", "nul-byte", "invalid-utf8", "utf16-bom",
    "utf8-bom", "dev-zero", "fifo", "directory", "missing", "lone-surrogate",
)  # fmt: skip
BLOCKING_KINDS = {"fifo"}  # run in their own pool: a hang there waits, it does not work
# Fewer kinds where a probe costs more, to keep the matrix near 10 minutes on 2 cores:
# a call that loads a model (the BOM case would run it; NUL and bad UTF-8 go through
# the same reader as binary data; a missing path is click's or that reader's), and a
# deprecated alias (it runs the code of the command that replaced it, probed fully).
MODEL_KINDS = (
    "prose", "empty", "deep-json", "binary", "utf16-bom", "dev-zero", "fifo", "directory",
    "lone-surrogate",
)  # fmt: skip
JSON_SUFFIXES = {".json", ".jsonl"}  # a \ud800 escape is half a character only there
ALIAS_KINDS = ("prose", "binary", "dev-zero", "fifo")


def is_file_slot(path: str, param: click.Parameter) -> bool:
    """Whether ``param`` of the command at ``path`` names an input file or folder."""
    if isinstance(param, click.Argument):
        return isinstance(param.type, click.Path) and (path, param.name) not in OUTPUT_ARGUMENTS
    if not isinstance(param, click.Option) or param.hidden:
        return False
    names = [o for o in param.opts if o.startswith("--")]
    if not names or names[0] in NOT_SLOTS:
        return False
    meaning = MEANINGS.get(names[0])
    wanted = {FILE, PATH}
    return meaning is not None and bool(wanted & set(meaning.kinds)) and kind_of(param) in wanted


def slot_name(param: click.Parameter) -> str:
    if isinstance(param, click.Option):
        return next(o for o in param.opts if o.startswith("--"))
    return str(param.name).upper()


def declared_slots(path: str, command: click.Command) -> list[str]:
    return [slot_name(p) for p in command.params if is_file_slot(path, p)]


def folder_slots(path: str, command: click.Command) -> set[str]:
    """The slots that also take a folder of input files (``--judged``, ``--annotators``)."""

    def takes_folders(param: click.Parameter) -> bool:
        if isinstance(param, click.Option):
            return kind_of(param) == PATH
        return isinstance(param.type, click.Path) and param.type.file_okay and param.type.dir_okay

    return {slot_name(p) for p in command.params if is_file_slot(path, p) and takes_folders(p)}


def output_options(command: click.Command) -> list[str]:
    """The visible output-file options of ``command`` (``--out``, ``--plot``)."""
    found = []
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden and kind_of(param) == FILE:
            found += [o for o in param.opts if o in OUTPUT_OPTIONS]
    return found


def _raw_values(command: click.Command, argv: tuple[str, ...]) -> dict[str, object]:
    ctx = click.Context(command, info_name="x", resilient_parsing=True)
    values, _, _ = command.make_parser(ctx).parse_args(list(argv))
    return values


def _first_file(value: object) -> str | None:
    words = value if isinstance(value, list | tuple) else [value]
    for word in words:
        name = at_name(word) if isinstance(word, str) else None
        if name is not None and name[1:] in FILES:
            return name
    return None


def slots(path: str, command: click.Command, call: Call) -> dict[str, str]:
    """``{slot: the @NAME word call gives it}`` for the file slots call fills."""
    values = _raw_values(command, call.argv)
    found: dict[str, str] = {}
    for param in command.params:
        wanted = is_file_slot(path, param) or param.name in call.extra_slots
        word = _first_file(values.get(str(param.name))) if wanted else None
        if word is not None:
            found[slot_name(param)] = word
    for option in (s for s in call.extra_slots if s.startswith("--")):
        if option in call.argv:  # a pass-through command: the option is not its own
            found[option] = call.argv[call.argv.index(option) + 1]
    return found


def fillings(path: str, command: click.Command, calls: tuple[Call, ...]) -> list[tuple]:
    """``(call index, slot, word)`` for every slot every call fills."""
    return [(i, slot, word) for i, call in enumerate(calls)
            for slot, word in slots(path, command, call).items()]  # fmt: skip


def slot_plan(path: str, command: click.Command, calls: tuple[Call, ...]) -> list[tuple]:
    """``(call index, slot, word)``: each slot probed in the first call that fills it."""
    seen: set[str] = set()
    plan = []
    for index, slot, word in fillings(path, command, calls):
        if slot not in seen:
            seen.add(slot)
            plan.append((index, slot, word))
    return plan


def is_deprecated(command: click.Command) -> bool:
    return bool(command.deprecated) or (command.help or "").startswith("Deprecated")


def kinds_for(word: str, command: click.Command, call: Call) -> tuple[str, ...]:
    """The bad inputs probed in the slot given the valid file ``word`` in ``call``."""
    kinds = ALIAS_KINDS if is_deprecated(command) else MODEL_KINDS if call.model else BAD_KINDS
    if Path(word).suffix not in JSON_SUFFIXES:
        kinds = tuple(k for k in kinds if k != "lone-surrogate")
    if Path(word).suffix in TEXT_SUFFIXES:  # prose and bracket soup are valid text
        return tuple(k for k in kinds if k not in {"prose", "deep-json"})
    return kinds


def _middle(data: bytes, insert: bytes) -> bytes:
    """``insert`` put in the middle of ``data``, between two lines' characters."""
    middle = len(data) // 2
    while middle < len(data) and (data[middle] in b'\n\r\t ,:{}[]"' or 0x80 <= data[middle] < 0xC0):
        middle += 1
    return data[:middle] + insert + data[middle:]


def _in_a_string(data: bytes, insert: bytes) -> bytes:
    """``insert`` put at the start of the first string value of JSON ``data`` (after
    ``": "``; else in its middle)."""
    at = data.find(b': "')
    return data[: at + 3] + insert + data[at + 3 :] if at >= 0 else _middle(data, insert)


def _as_utf16(valid: bytes) -> bytes:
    """A text file re-encoded as UTF-16 with its BOM; a binary one (an inspect log is a
    zip) with the BOM put before it."""
    try:
        return valid.decode("utf-8").encode("utf-16")
    except UnicodeDecodeError:
        return b"\xff\xfe" + valid


def make_bad(kind: str, target: Path) -> str:
    """Put the bad input ``kind`` where the valid file ``target`` is; return its path."""
    valid = target.read_bytes()
    contents = {
        "prose": b"This is not JSON: just a sentence or two about cars and buses.\n",
        "empty": b"",
        "deep-json": b"[" * 10000 + b"]" * 10000,
        "binary": bytes(random.Random(0).randrange(256) for _ in range(4096)) + b"\xff\xfe\x80",
        "nul-byte": _middle(valid, b"\x00"),
        "invalid-utf8": _middle(valid, b"\xff\xc3\x28"),
        "utf16-bom": _as_utf16(valid),
        "utf8-bom": b"\xef\xbb\xbf" + valid,
        "lone-surrogate": _in_a_string(valid, b"\\ud800"),
    }
    if kind in contents:
        target.write_bytes(contents[kind])
        return str(target)
    if kind == "dev-zero":
        return os.devnull.replace("null", "zero")
    target.unlink()
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "directory":
        target.mkdir()
    elif kind != "missing":
        raise ValueError(kind)
    return str(target)


def link_input(how: str, source: Path) -> Path:
    """A symbolic or hard link to ``source`` beside it (same suffix)."""
    link = source.with_name(f"{how}-to-{source.name}")
    if how == "symlink":
        link.symlink_to(source.name)
    else:
        os.link(source, link)
    return link


def fresh(folder: Path) -> Path:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder
