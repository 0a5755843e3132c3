"""The probes, generated from the command table, and running them all in parallel.

Group "bad-input" (A): every command × every file slot × every bad input of
``slots.BAD_KINDS`` (fewer for calls that load a model and for deprecated aliases:
``slots.kinds_for``); it must exit 1 or 2 (``utf8-bom``: 0 too), with one error line,
no traceback, in time, and leave every file of its folder as it was.

Group "output" (B): every command with ``--out``/``--plot`` × that output being one of
its input files (each slot), a symbolic link to the first one, a hard link to it, a
file inside an input folder (slots that take folders), a file another input names
(``Call.indirect``), and a name the command derives from the output (``OUT-run1.json``,
``OUT.meta.json``, ``OUT.csv``: found by running the base call once and looking at what
it wrote). It must exit 2 with one line and leave every input as it was (a link still
a link). Where a refusal could come from something else (an input renamed to fit a
derived name or ``--plot``'s .svg), a control run without the clash must succeed.

Groups "long-text" (F) and "non-finite" (G), generated in ``values.py``: every
parameter that takes text or a path (``ask TEXT|FILE``, ``--llm``, ``--embedding-model``)
given text of 256 B to 1 MiB, and every float option given NaN, inf and -inf.

The other groups run on their own, each in its module, generated from the same table:
C "kill-partial" (``test_kill_partial.py``): a run killed half-way leaves the results
file it replaces whole. D "ray-shards" (``test_ray_shards.py``, ``shard_damage.py``):
every ``generate`` command with ``--engine ray``, resumed over shards damaged each way
(a row edited, another input's id, an index out of range or negative, a stats field of
the wrong type, a torn last line, a shard from another output's or run's folder),
exits 0, names each damaged shard in a warning and writes a clean run's files; a
second run while the first holds the shard lock exits 1 with one line. E "secrets"
(``test_secrets.py``): every command with ``--base-url``, its key given in
``OPENAI_API_KEY``, ``MAIEUTIC_API_KEY`` or the URL's query string, against a server
that echoes the request: no 8-character piece of the key in any file written, on
standard output or on standard error.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import click

from tests.hardening import slots as S
from tests.hardening.probing import (
    Outcome,
    changed,
    error_problems,
    last_line,
    model_guard,
    run_maieutic,
    snapshot,
)
from tests.hardening.valid_calls import CALLS, Call, at_name, place, put, write_files

WORKERS = 8


@dataclass
class Probe:
    """One command line to run and what it must do."""

    group: str  # "bad-input" or "output"
    command: str
    slot: str
    case: str
    prepare: Callable[[Path], list[str]] = field(repr=False)  # fills the folder; the argv
    allowed: tuple[int, ...] = (1, 2)
    blocking: bool = False
    control: Callable[[Path], list[str]] | None = field(default=None, repr=False)
    real: bool = False  # run as ``python -m maieutic`` (else forked from the warm server)
    forked: bool = False  # never run as a real process (an argument over exec's limit)
    said: tuple[str, ...] = ()  # what standard error must hold
    unsaid: tuple[str, ...] = ()  # what it must not
    longest_line: int | None = None  # the longest line standard error may hold

    @property
    def key(self) -> str:
        return f"{self.command} | {self.slot} | {self.case}"


@dataclass
class Verdict:
    probe: Probe
    problems: list[str]
    outcome: Outcome

    def line(self) -> str:
        return f"{self.probe.key}: {'; '.join(self.problems)}"


def resolve(argv: tuple[str, ...], folder: Path) -> list[str]:
    """The table's words with ``@NAME`` made a path in ``folder``."""
    return [put(w, str(folder / name[1:])) if (name := at_name(w)) else w for w in argv]


def with_option(argv: list[str], option: str, value: str) -> list[str]:
    """``argv`` with ``option`` set to ``value`` (replaced, or added at the end)."""
    argv = list(argv)
    if option in argv:
        argv[argv.index(option) + 1] = value
        return argv
    return [*argv, option, value]


def _bad(call: Call, word: str, kind: str, folder: Path) -> list[str]:
    write_files(folder)
    argv = resolve(call.argv, folder)
    at = place(call.argv, word)
    argv[at] = put(call.argv[at], S.make_bad(kind, folder / word[1:]))
    return argv


def bad_input_probes(path: str, command: click.Command) -> Iterator[Probe]:
    calls = CALLS[path]
    for index, slot, word in S.slot_plan(path, command, calls):
        for kind in S.kinds_for(word, command, calls[index]):
            allowed = (0, 1, 2) if kind == "utf8-bom" else (1, 2)
            prepare = partial(_bad, calls[index], word, kind)
            yield Probe("bad-input", path, slot, kind, prepare, allowed, kind in S.BLOCKING_KINDS)


def _clash(call: Call, option: str, word: str, how: str, folder: Path) -> list[str]:
    """The base call with ``option`` onto the input ``word`` (itself, or a link to it;
    ``control``: elsewhere). Where the option takes one suffix only (``--plot``: .svg),
    the input is first renamed to carry it, or the probe would only meet that check."""
    write_files(folder)
    argv, target = resolve(call.argv, folder), folder / word[1:]
    suffix = S.SUFFIX_BOUND.get(option)
    if suffix:
        target = target.rename(target.with_suffix(suffix))
        at = place(call.argv, word)
        argv[at] = put(call.argv[at], str(target))
    values = {"same": target, "control": folder / f"other{suffix or '.out'}"}
    value = values[how] if how in values else S.link_input(how, target)
    return with_option(argv, option, str(value))


def _inside(call: Call, option: str, word: str, how: str, folder: Path) -> list[str]:
    """``option`` onto an input read from inside a folder: a folder slot given as the
    folder that holds the file (``folder``), or a file another input names (``listed``)."""
    write_files(folder)
    argv, target = resolve(call.argv, folder), folder / word[1:]
    if how == "folder":
        holder = folder / "inputs"
        holder.mkdir()
        target = target.rename(holder / target.name)
        at = place(call.argv, word)
        argv[at] = put(call.argv[at], str(holder))
    return with_option(argv, option, str(target))


def clash_probes(path: str, command: click.Command) -> Iterator[Probe]:
    calls = CALLS[path]
    plan = S.slot_plan(path, command, calls)
    for option in S.output_options(command):
        bound = option in S.SUFFIX_BOUND
        rename = f" (renamed *{S.SUFFIX_BOUND[option]})" if bound else ""
        for n, (index, slot, word) in enumerate(plan):
            for how in ("same", "symlink", "hardlink") if n == 0 else ("same",):
                prepare = partial(_clash, calls[index], option, word, how)
                control = partial(_clash, calls[index], option, word, "control") if bound else None
                case = f"{option} = {how} input{rename}"
                yield Probe("output", path, slot, case, prepare, (2,), control=control)
        if not bound:
            yield from _inside_probes(path, command, option, plan)


def _inside_probes(path: str, command: click.Command, option: str, plan: list[tuple]):
    calls, folders = CALLS[path], S.folder_slots(path, command)
    for index, slot, word in plan:
        if slot in folders:
            prepare = partial(_inside, calls[index], option, word, "folder")
            case = f"{option} = a file of the input folder"
            yield Probe("output", path, slot, case, prepare, (2,))
    for word in calls[0].indirect:
        prepare = partial(_inside, calls[0], option, word, "listed")
        case = f"{option} = {word[1:]}, named inside an input"
        yield Probe("output", path, "(indirect)", case, prepare, (2,))


def out_suffix(call: Call, option: str) -> str:
    if option in call.argv:
        return "".join(Path(call.argv[call.argv.index(option) + 1]).suffixes) or ".json"
    return ".json"


def _derived(call: Call, option: str, word: str, name: str, out: str, folder: Path) -> list[str]:
    write_files(folder)
    shutil.copyfile(folder / word[1:], folder / name)
    argv = resolve((*call.argv, *call.derived_argv), folder)
    at = place(call.argv, word)
    argv[at] = put(call.argv[at], str(folder / name))
    return with_option(argv, option, str(folder / out))


def derived_probes(path: str, command: click.Command, option: str, names: list[str]):
    """Probes where an input is named like an output derived from ``--out victim…``: the
    input is the first slot (of any call) whose valid file has the derived name's suffix."""
    calls = CALLS[path]
    plan = S.fillings(path, command, calls)
    for name in names:
        fits = [(i, slot, word) for i, slot, word in plan if Path(word).suffix == Path(name).suffix]
        if not fits:
            continue
        index, slot, word = fits[0]
        suffix = out_suffix(calls[index], option)
        prepare = partial(_derived, calls[index], option, word, name, f"victim{suffix}")
        control = partial(_derived, calls[index], option, word, name, f"other{suffix}")
        case = f"{option} victim{suffix} writes {name}, an input"
        yield Probe("output", path, slot, case, prepare, (2,), control=control)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.]+", "_", text)[:120]


def judge(probe: Probe, root: Path, home: Path) -> Verdict:
    """Run ``probe`` in a fresh folder under ``root`` and say what is wrong."""
    folder = S.fresh(root / _slug(probe.key))
    argv = probe.prepare(folder)
    before = snapshot(folder)
    outcome = run_maieutic([*probe.command.split(), *argv], folder, home, real=probe.real)
    problems = error_problems(outcome, probe.allowed) + changed(before, snapshot(folder))
    problems += [f"stderr lacks {w!r}: {last_line(outcome.err)}" for w in probe.said
                 if w not in outcome.err]  # fmt: skip
    problems += [f"stderr says {w!r}" for w in probe.unsaid if w in outcome.err]
    longest = max((len(line) for line in outcome.err.splitlines()), default=0)
    if probe.longest_line is not None and longest > probe.longest_line:
        problems.append(f"a line of {longest:,} characters on stderr: {last_line(outcome.err)}")
    if not problems and probe.control is not None:
        check = S.fresh(root / _slug(probe.key + " control"))
        control = [*probe.command.split(), *probe.control(check)]
        controlled = run_maieutic(control, check, home, real=False)
        if controlled.code != 0:
            why = last_line(controlled.err)
            problems.append(f"inconclusive: refused without the clash too: {why}")
    return Verdict(probe, problems, outcome)


def observe(path: str, option: str, root: Path, home: Path) -> tuple[list[str], Outcome]:
    """The names the first base call of ``path`` writes beside ``option victim…``."""
    call = CALLS[path][0]
    folder = S.fresh(root / _slug(f"observe {path} {option}"))
    write_files(folder)
    before = set(folder.iterdir())
    victim = f"victim{out_suffix(call, option)}"
    argv = resolve((*call.argv, *call.derived_argv), folder)
    argv = with_option(argv, option, str(folder / victim))
    with model_guard(call.model):
        outcome = run_maieutic(
            [*path.split(), *argv], folder, home, limits=(120.0, 600.0, 900.0), real=False
        )
    made = sorted(p.name for p in set(folder.iterdir()) - before)
    return [n for n in made if n.startswith("victim") and n != victim], outcome


def interleaved(probes: list[Probe]) -> list[Probe]:
    """Probes ordered so that neighbours are of different kinds (no 8 /dev/zero at once)."""
    by_case: dict[str, list[Probe]] = {}
    for probe in probes:
        by_case.setdefault(probe.case, []).append(probe)
    queues, ordered = list(by_case.values()), []
    while any(queues):
        for queue in queues:
            if queue:
                ordered.append(queue.pop(0))
    return ordered


def choose_real(probes: list[Probe]) -> list[Probe]:
    """Mark the probes run as a real ``python -m maieutic``: the first of each command
    and the first of each case (bad input or clash), so that the console entry point,
    its exit codes and its standard error are seen end to end for every command and
    every kind of probe; the rest run forked from the warm server."""
    commands, cases = set(), set()
    for probe in probes:
        if probe.forked:
            continue
        if probe.command not in commands or probe.case not in cases:
            probe.real = True
        commands.add(probe.command)
        cases.add(probe.case)
    return probes


def run_all(probes: list[Probe], root: Path, home: Path) -> list[Verdict]:
    """Judge every probe (``choose_real`` says which run as a real process): blocking
    kinds in a pool of their own, the rest in another."""
    choose_real(probes)
    futures: list[Future] = []
    with ThreadPoolExecutor(WORKERS) as pool, ThreadPoolExecutor(WORKERS) as waiting:
        for probe in interleaved(probes):
            chosen = waiting if probe.blocking else pool
            futures.append(chosen.submit(judge, probe, root, home))
    return [f.result() for f in futures]


def run_parallel(jobs: list[Callable[[], object]]) -> list[object]:
    with ThreadPoolExecutor(WORKERS) as pool:
        return list(pool.map(lambda job: job(), jobs))
