"""Groups F and G of the probe matrix, generated from the command tree.

F "long-text": every parameter that takes text or a path (an argument whose metavar
offers TEXT and FILE, ``ask TEXT|FILE|-``; an option whose meaning in
``maieutic.cli.option_meanings.MEANINGS`` is text or a file/folder, ``--llm``,
``--embedding-model``, ``--cross-encoder``) given a pasted paragraph of each size of
``SIZES``, in the first valid call of ``valid_calls.CALLS`` that runs a model (where the
name is used) or else the first. Text that cannot be a path is text: never ``File name
too long``, never a traceback; ``ask`` answers (exit 0) up to its length limit and
refuses longer text with one line; an option's text is a name that cannot be loaded,
one line (exit 1 or 2), unless the call leaves it unused (exit 0). A
command with such a parameter and no valid call fails
``test_every_text_or_path_command_has_a_call``.

G "non-finite": every float option of every command (the servers' too: refused before
anything starts, so no valid call is needed) given ``nan``, ``inf`` and ``-inf``: exit
2 with one line naming the option.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

import click

from maieutic.cli.option_meanings import DIRECTORY, FILE, MEANINGS, NUMBER, PATH, TEXT, kind_of
from tests.hardening import slots as S
from tests.hardening.matrix import Probe, resolve, with_option
from tests.hardening.valid_calls import CALLS, Call, place, put, write_files

SIZES = (256, 4096, 65536, 1 << 20)
EXEC_LIMIT = 128 * 1024  # Linux's MAX_ARG_STRLEN: a longer argument can only be forked
PARAGRAPH = (
    "Our city should ban cars downtown, because pollution harms children and the "
    "evidence from Ghent and Oslo shows that both centres became livelier after the ban; "
    "shop owners and residents, who had feared for their trade and their quiet streets, "
    "now say that they would not go back. "
)
TEXT_LIMIT_CHARS = 200_000  # ask's MAX_ASK_CHARS default: longer text is refused
NON_FINITE = ("nan", "inf", "-inf")


def pasted(size: int) -> str:
    """A paragraph of ``size`` bytes (ASCII), one line, with an and/or near its end."""
    text = (PARAGRAPH * (size // len(PARAGRAPH) + 1))[: size - 7]
    return text + " and/or"


def _option_name(param: click.Parameter) -> str | None:
    return next((o for o in param.opts if o.startswith("--")), None)


def text_or_path_params(command: click.Command) -> list[click.Parameter]:
    """The parameters of ``command`` that take text or a path."""
    found = []
    for param in command.params:
        if isinstance(param, click.Argument):
            offers = str(param.metavar or "").upper().split("|")
            if not isinstance(param.type, click.Path) and {"TEXT", "FILE"} <= set(offers):
                found.append(param)
        elif isinstance(param, click.Option) and not param.hidden and kind_of(param) == TEXT:
            meaning = MEANINGS.get(_option_name(param) or "")
            if meaning and TEXT in meaning.kinds and {FILE, PATH, DIRECTORY} & set(meaning.kinds):
                found.append(param)
    return found


def float_options(command: click.Command) -> list[str]:
    """The float options of ``command`` (hidden ones too: an old spelling still parses)."""
    return [
        name
        for param in command.params
        if isinstance(param, click.Option) and kind_of(param) == NUMBER
        if (name := _option_name(param))
    ]


def _call_for(path: str) -> Call:
    """The first call of ``path`` that runs a model (where a model's name is used), or
    the first call."""
    calls = CALLS[path]
    return next((c for c in calls if c.model), calls[0])


def _with_text(
    call: Call | None, slot: str, word: str | None, text: str, folder: Path
) -> list[str]:
    """The call with ``text`` for the file ``word`` it gives an argument, or as the
    option ``slot`` (a server, with no call: the option alone)."""
    if call is None:
        return [slot, text]
    write_files(folder)
    argv = resolve(call.argv, folder)
    if word is None:
        return with_option(argv, slot, text)
    at = place(call.argv, word)
    argv[at] = put(call.argv[at], text)
    return argv


def long_text_probes(path: str, command: click.Command) -> Iterator[Probe]:
    call = _call_for(path) if path in CALLS else None  # None: a server (no call ends)
    for param in text_or_path_params(command):
        slot = S.slot_name(param)
        # an argument: the file the call gives it (``Call.extra_slots`` names it)
        argument = isinstance(param, click.Argument)
        word = S.slots(path, command, call)[slot] if argument and call else None
        for size in SIZES:
            prepare = partial(_with_text, call, slot, word, pasted(size))
            if call is None:  # a server: refused while it starts, or it would serve
                allowed, said = (2,), ()
            elif argument:
                allowed, said = ((0,), ()) if size <= TEXT_LIMIT_CHARS else ((2,), ("limit",))
            else:  # a name no call uses (an option of a part turned off) may pass
                allowed, said = (0, 1, 2), ()
            yield Probe(
                "long-text", path, slot, f"{size:,} bytes of text", prepare, allowed,
                forked=size > EXEC_LIMIT, said=said, unsaid=("File name too long", "OSError"),
                longest_line=2000,
            )  # fmt: skip


def _with_number(call: Call | None, option: str, value: str, folder: Path) -> list[str]:
    if call is None:  # a server: refused while its options are parsed, before it starts
        return [option, value]
    write_files(folder)
    return with_option(resolve(call.argv, folder), option, value)


def non_finite_probes(path: str, command: click.Command) -> Iterator[Probe]:
    call = CALLS[path][0] if path in CALLS else None
    for option in float_options(command):
        for value in NON_FINITE:
            prepare = partial(_with_number, call, option, value)
            said = (option, "not a finite number")
            case = f"{option} {value.replace('-', 'minus ')}"  # a folder name apart from inf's
            yield Probe("non-finite", path, option, case, prepare, (2,), said=said)
