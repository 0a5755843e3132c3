"""Matrix groups F and G (``values.py``): every parameter that takes text or a path
given a pasted paragraph of 256 B to 1 MiB, and every float option given NaN, inf and
-inf, each probe run as the other matrices' probes are (a process of its own, one error
line, no traceback, nothing written over). Generated from the command tree: a new
command or option is probed as soon as it exists."""

from __future__ import annotations

import pytest

from tests.cli_commands import leaves
from tests.hardening import values as V
from tests.hardening.valid_calls import CALLS, EXEMPT

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]
COMMANDS = dict(leaves())
TEXT_COMMANDS = sorted(p for p, c in COMMANDS.items() if V.text_or_path_params(c))
FLOAT_COMMANDS = sorted(p for p, c in COMMANDS.items() if V.float_options(c))


def _failures(verdicts) -> str:
    failures = [v.line() for v in verdicts if v.problems]
    return f"{len(failures)} of {len(verdicts)} probes failed:\n" + "\n".join(failures)


def test_the_groups_find_what_they_probe():
    assert "ask" in TEXT_COMMANDS and len(TEXT_COMMANDS) >= 10
    found = {o for c in TEXT_COMMANDS for p in V.text_or_path_params(COMMANDS[c]) for o in p.opts}
    assert {"--llm", "--embedding-model", "--cross-encoder"} <= found
    assert "serve" in FLOAT_COMMANDS and len(FLOAT_COMMANDS) >= 15


def test_every_text_or_path_command_has_a_call():
    # a new command taking text or a path fails here until valid_calls has a call for it
    # (a server, exempt from the table, is probed alone: refused before it starts)
    missing = [c for c in TEXT_COMMANDS if c not in CALLS and c not in EXEMPT]
    assert not missing, f"add a valid call to tests/hardening/valid_calls.py for {missing}"


@pytest.mark.parametrize("long_text_command", TEXT_COMMANDS)
def test_text_that_cannot_be_a_path_is_text(matrix, long_text_command):
    verdicts = matrix.of("long-text", long_text_command)
    params = V.text_or_path_params(COMMANDS[long_text_command])
    assert len(verdicts) == len(params) * len(V.SIZES)
    assert not [v for v in verdicts if v.problems], _failures(verdicts)


@pytest.mark.parametrize("float_command", FLOAT_COMMANDS)
def test_no_float_option_takes_nan_or_infinity(matrix, float_command):
    verdicts = matrix.of("non-finite", float_command)
    options = V.float_options(COMMANDS[float_command])
    assert len(verdicts) == len(options) * len(V.NON_FINITE)
    assert not [v for v in verdicts if v.problems], _failures(verdicts)
