"""The table of valid calls covers every command, and each of its calls succeeds.

A new leaf command fails ``test_every_command_is_in_the_table`` until it has a valid
call in ``valid_calls.CALLS`` (then the bad-input and output matrices probe its file
slots, found from its click parameters) or a reason in ``valid_calls.EXEMPT``.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from tests.cli_commands import leaves
from tests.hardening import matrix as M
from tests.hardening import slots as S
from tests.hardening.probing import error_problems, model_guard, run_maieutic
from tests.hardening.valid_calls import CALLS, EXEMPT, FILES, at_name, write_files

COMMANDS = dict(leaves())


def test_every_command_is_in_the_table():
    missing = sorted(set(COMMANDS) - set(CALLS) - set(EXEMPT))
    assert not missing, f"add a valid call to tests/hardening/valid_calls.py for {missing}"
    both = sorted(set(CALLS) & set(EXEMPT))
    assert not both, f"both in CALLS and EXEMPT: {both}"


def test_the_table_names_only_commands_that_exist():
    assert not sorted((set(CALLS) | set(EXEMPT)) - set(COMMANDS))


@pytest.mark.parametrize("path", sorted(CALLS))
def test_every_file_slot_has_a_valid_file(path):
    command, calls = COMMANDS[path], CALLS[path]
    filled = {slot for _, slot, _ in S.slot_plan(path, command, calls)}
    assert set(S.declared_slots(path, command)) <= filled
    for call in calls:  # a probe replaces a file by its word: each word once per call
        words = [n for w in call.argv if (n := at_name(w)) and n[1:] in FILES]
        assert len(words) == len(set(words)), call.argv


def _base(path: str, index: int, root: Path, home: Path):
    folder = S.fresh(root / f"{path.replace(' ', '_')}-{index}")
    write_files(folder)
    call = CALLS[path][index]
    argv = [*path.split(), *M.resolve(call.argv, folder)]
    with model_guard(call.model):
        # forked from the warm server: the matrices run one real process per command
        outcome = run_maieutic(argv, folder, home, limits=(120.0, 600.0, 900.0), real=False)
        return path, index, outcome


@pytest.mark.slow
def test_every_base_call_succeeds(tmp_path, probe_home):
    jobs = [partial(_base, path, i, tmp_path, probe_home)
            for path, calls in CALLS.items() for i in range(len(calls))]  # fmt: skip
    failed = []
    for path, index, outcome in M.run_parallel(jobs):
        problems = error_problems(outcome, allowed=(0,))
        if problems:
            failed.append(f"{path} [call {index}]: {'; '.join(problems)}\n{outcome.err[-800:]}")
    assert not failed, "\n".join(failed)
