"""One run of the whole probe matrix per session, shared by the per-command tests.

The first test that asks for a verdict runs every probe of every command selected in
this session (``-k`` narrows it) in parallel; the others read the results. A summary
of every verdict is written to ``matrix-report.json`` in the session's folder (and to
``$MAIEUTIC_HARDENING_REPORT`` when set).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from tests.cli_commands import leaves
from tests.hardening import matrix as M
from tests.hardening import slots as S
from tests.hardening import values as V
from tests.hardening.probing import stop_warm_servers
from tests.hardening.valid_calls import CALLS, EXEMPT

GROUP_PARAMS = {
    "bad_input_command": "bad-input",
    "clash_command": "output",
    "long_text_command": "long-text",
    "float_command": "non-finite",
}
# the groups whose probes are made by a function of the command path and command
MADE_BY = {
    "bad-input": M.bad_input_probes,
    "output": M.clash_probes,
    "long-text": V.long_text_probes,
    "non-finite": V.non_finite_probes,
}


class Matrix:
    """The verdicts of the probes of the commands this session selected."""

    def __init__(self, root: Path, home: Path, wanted: set[tuple[str, str]]) -> None:
        self.root, self.home, self.wanted = root, home, wanted
        self.verdicts: list[M.Verdict] | None = None
        self.observed: dict[tuple[str, str], tuple[list[str], M.Outcome]] = {}

    def of(self, group: str, command: str) -> list[M.Verdict]:
        if self.verdicts is None:
            self.verdicts = self._run()
            self._write_report()
        return [v for v in self.verdicts if (v.probe.group, v.probe.command) == (group, command)]

    def _run(self) -> list[M.Verdict]:
        commands = dict(leaves())
        probes: list[M.Probe] = []
        for group, path in sorted(self.wanted):
            probes += MADE_BY[group](path, commands[path])
        probes += self._derived(commands)
        return M.run_all(probes, self.root / "probes", self.home)

    def _derived(self, commands: dict) -> list[M.Probe]:
        """Run each base call once with ``--out victim…`` (in parallel) to see what else
        it writes; then the probes with an input named like one of those."""
        wanted = [(path, option) for group, path in sorted(self.wanted) if group == "output"
                  for option in S.output_options(commands[path])]  # fmt: skip
        jobs = [partial(M.observe, path, option, self.root / "observe", self.home)
                for path, option in wanted]  # fmt: skip
        probes = []
        for (path, option), seen in zip(wanted, M.run_parallel(jobs), strict=True):
            self.observed[(path, option)] = seen
            probes += M.derived_probes(path, commands[path], option, seen[0])
        return probes

    def _write_report(self) -> None:
        rows = [
            {"group": v.probe.group, "command": v.probe.command, "slot": v.probe.slot,
             "case": v.probe.case, "problems": v.problems, "exit": v.outcome.code,
             "seconds": round(v.outcome.seconds, 1), "stderr": v.outcome.err[-600:]}
            for v in self.verdicts or []
        ]  # fmt: skip
        text = json.dumps(rows, indent=1)
        (self.root / "matrix-report.json").write_text(text, encoding="utf-8")
        if os.environ.get("MAIEUTIC_HARDENING_REPORT"):
            Path(os.environ["MAIEUTIC_HARDENING_REPORT"]).write_text(text, encoding="utf-8")


@pytest.fixture(scope="session")
def probe_home(tmp_path_factory) -> Iterator[Path]:
    """The MAIEUTIC_HOME every probe of the session shares (caches warm once); the
    warm server the probes fork from is stopped at the end of the session."""
    yield tmp_path_factory.mktemp("probe-home")
    stop_warm_servers()


@pytest.fixture(scope="session")
def matrix(request, tmp_path_factory, probe_home) -> Matrix:
    wanted = set()
    for item in request.session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        for name, group in GROUP_PARAMS.items():
            # a float option is refused before a call's files matter: every command; a
            # server's text option is refused as it starts (it has no call that ends)
            exempt = params.get(name) in EXEMPT and group == "long-text"
            if name in params and (params[name] in CALLS or group == "non-finite" or exempt):
                wanted.add((group, params[name]))
    return Matrix(tmp_path_factory.mktemp("matrix"), probe_home, wanted)
