"""Matrix B: an output (``--out``, ``--plot``) that is an input, a link to one, or a name
the command derives from the output (``OUT-run1.json``, ``OUT.meta.json``, ``OUT.csv``).

Each probe must exit 2 with one error line and leave every input byte-for-byte as it
was (a symbolic link still a link).
"""

from __future__ import annotations

import pytest

from tests.cli_commands import leaves
from tests.hardening import slots as S
from tests.hardening.valid_calls import CALLS

# the first test runs the whole matrix (every selected command's probes, in parallel)
pytestmark = [pytest.mark.slow, pytest.mark.timeout(2400)]
COMMANDS = dict(leaves())
WITH_OUTPUT = sorted(p for p in CALLS if S.output_options(COMMANDS[p]))


@pytest.mark.parametrize("clash_command", WITH_OUTPUT)
def test_an_output_never_overwrites_an_input(matrix, clash_command):
    verdicts = matrix.of("output", clash_command)
    assert verdicts, f"no output probes for {clash_command}"
    broken = []
    for option in S.output_options(COMMANDS[clash_command]):
        _, outcome = matrix.observed[(clash_command, option)]
        if outcome.code != 0:
            broken.append(f"{option} victim…: the base call failed: {outcome.err[-300:]}")
    failures = broken + [v.line() for v in verdicts if v.problems]
    assert not failures, f"{len(failures)} of {len(verdicts)} probes failed:\n" + "\n".join(
        failures
    )
