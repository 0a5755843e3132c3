"""Output folders holding inputs (issue 50): for every command with an output folder
(``--out-dir``, ``--official-dir``), an input sitting in that folder under the name of
each file the folder receives is refused with exit 2, and left as it was.

The files a folder receives are learned by running the command's valid call into an
empty folder first, so a command that writes a new file there is probed for it too.
A new command with an output folder fails ``test_every_output_folder_is_probed`` until
it has a call here or in ``valid_calls.CALLS`` (or a reason in ``NO_INPUT``).
"""

from __future__ import annotations

import shutil

import click
import pytest

from maieutic.cli.outputs import OUTPUT_FOLDERS
from tests.cli_commands import leaves
from tests.hardening.matrix import resolve, with_option
from tests.hardening.probing import model_guard, run_maieutic
from tests.hardening.valid_calls import CALLS, FILES, Call, write_files

# generate compqa runs the embedded language model: beside another llama.cpp run, both crawl
pytestmark = pytest.mark.xdist_group("llm")
NO_INPUT = {"demo": "takes no input file: no input of its own can sit in its folder"}
EXTRA_CALLS = {
    # the table's call writes no official files; the same call with the folder does
    ("evaluate cqs", "--official-dir"): Call(
        (*CALLS["evaluate cqs"][0].argv, "--official-dir", "@official")
    ),
}


def folder_options() -> list[tuple[str, str]]:
    """``(command, option)`` for each visible output-folder option of a leaf command."""
    found = []
    for path, command in leaves():
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                found += [(path, o) for o in param.opts if o in OUTPUT_FOLDERS]
    return sorted(found)


def _call(path: str, option: str) -> Call | None:
    if (path, option) in EXTRA_CALLS:
        return EXTRA_CALLS[(path, option)]
    return next((c for c in CALLS.get(path, ()) if option in c.argv), None)


PROBED = [(p, o) for p, o in folder_options() if p not in NO_INPUT]


def test_every_output_folder_is_probed():
    assert folder_options(), "no command has an output folder: the search is broken"
    missing = [f"{p} {o}" for p, o in PROBED if _call(p, o) is None]
    assert not missing, f"output folders with no call that writes them: {missing}"


def _input_word(call: Call) -> str:
    return next(w for w in call.argv if w.startswith("@") and w[1:] in FILES)


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize(("path", "option"), PROBED, ids=[f"{p} {o}" for p, o in PROBED])
def test_an_output_folder_never_receives_a_file_over_an_input(path, option, tmp_path):
    call = _call(path, option)
    assert call is not None
    home = tmp_path / "home"
    # what the folder receives, from a run into an empty folder
    first = tmp_path / "observe"
    first.mkdir()
    write_files(first)
    argv = with_option(resolve(call.argv, first), option, str(first / "folder"))
    with model_guard(call.model):
        seen = run_maieutic([*path.split(), *argv], first, home, limits=(120.0, 600.0, 900.0))
    assert seen.code == 0, seen.err[-500:]
    received = sorted(
        p.relative_to(first / "folder") for p in (first / "folder").rglob("*") if p.is_file()
    )
    assert received, f"{path} {option} wrote nothing in its folder"
    word = _input_word(call)
    problems = []
    for name in received:
        folder = tmp_path / f"probe-{name}".replace("/", "_")
        folder.mkdir()
        write_files(folder)
        victim = folder / "folder" / name
        victim.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(folder / word[1:], victim)
        before = victim.read_bytes()
        argv = resolve(call.argv, folder)
        argv[call.argv.index(word)] = str(victim)
        argv = with_option(argv, option, str(folder / "folder"))
        with model_guard(call.model):
            done = run_maieutic([*path.split(), *argv], folder, home, limits=(120.0, 600.0, 900.0))
        errors = [line for line in done.err.splitlines() if "error:" in line]
        if done.code != 2 or len(errors) != 1 or "Traceback" in done.err:
            problems.append(f"{word} as folder/{name}: exit {done.code}: {done.err[-300:]}")
        if not victim.is_file() or victim.read_bytes() != before:
            problems.append(f"{word} as folder/{name}: the input was overwritten")
    assert not problems, "\n".join(problems)
