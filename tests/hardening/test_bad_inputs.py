"""Matrix A: every command × every file slot × every bad input (``slots.BAD_KINDS``).

Each probe must exit 1 or 2 (a UTF-8 BOM before valid content may also succeed), print
one error line (``maieutic: error: …`` or click's usage block), no traceback, finish
in time (``probing``: killed when blocked or spinning) and leave every file as it was.
"""

from __future__ import annotations

import pytest

from tests.cli_commands import leaves
from tests.hardening import slots as S
from tests.hardening.valid_calls import CALLS

# the first test runs the whole matrix (every selected command's probes, in parallel)
pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]
COMMANDS = dict(leaves())


@pytest.mark.parametrize("bad_input_command", sorted(CALLS))
def test_bad_inputs_fail_cleanly(matrix, bad_input_command):
    verdicts = matrix.of("bad-input", bad_input_command)
    command, calls = COMMANDS[bad_input_command], CALLS[bad_input_command]
    planned = S.slot_plan(bad_input_command, command, calls)
    assert len(verdicts) == sum(len(S.kinds_for(w, command, calls[i])) for i, _, w in planned)
    failures = [v.line() for v in verdicts if v.problems]
    assert not failures, f"{len(failures)} of {len(verdicts)} probes failed:\n" + "\n".join(
        failures
    )
