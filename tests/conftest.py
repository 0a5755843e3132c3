"""Shared fixtures: an isolated MAIEUTIC_HOME per test, the shared data, a CLI runner."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

# pytest-xdist workers share the machine's cores: each worker's maths libraries (torch,
# OpenBLAS, llama.cpp, which reads OMP_NUM_THREADS: maieutic.llm.backends.local) get
# its share. Their threads wait for each other by spinning, so more threads than free
# cores make them several times slower (docs/testing.md). Set before anything loads them.
_WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 0)
if _WORKERS > 1:
    _SHARE = str(max(1, len(os.sched_getaffinity(0)) // _WORKERS))
    for _name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ.setdefault(_name, _SHARE)

from maieutic.cli.main import run  # noqa: E402 (after the thread counts)

pytest_plugins = ["tests._ci_skips"]  # under CI a skip is a failure (see the module)

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
FIXTURES = REPO / "tests" / "fixtures"
CQS_DEV = SHARED_DATA / "cqs" / "validation-dev.json"
FOCUS_DIR = SHARED_DATA / "focus"


# Tests that pytest-xdist keeps on one worker (``--dist loadgroup``), and why. A test
# may name its own group with ``pytest.mark.xdist_group``; these are by file.
XDIST_GROUPS = {
    # one run of the probe matrices serves both files and the command table: they share
    # the probes' state folder and the warm server the probes fork from
    "tests/hardening/test_bad_inputs.py": "hardening-matrix",
    "tests/hardening/test_output_clash.py": "hardening-matrix",
    "tests/hardening/test_command_table.py": "hardening-matrix",
    "tests/hardening/test_value_probes.py": "hardening-matrix",
    # a local Ray instance takes every core and a gigabyte: one at a time
    "tests/engines/": "ray",
    "tests/hardening/test_ray_shards.py": "ray",
    # llama.cpp runs a thread per core: two generations at once would each crawl
    "tests/test_llm_real.py": "llm",
    "tests/test_embedded_llm.py": "llm",
    "tests/test_ask_llm_embedded.py": "llm",
    "tests/test_llm_turns.py": "llm",
    "tests/tasks/focus/test_focus_llm_real.py": "llm",
    "tests/test_integrations_llm.py": "llm",
}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark the tests of ``XDIST_GROUPS`` with their group (before xdist reads marks)."""
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        where = Path(str(item.fspath)).resolve().relative_to(REPO).as_posix()
        for prefix, group in XDIST_GROUPS.items():
            if where.startswith(prefix):
                item.add_marker(pytest.mark.xdist_group(group))
                break


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    """Every test gets its own state directory: no cache leaks between tests."""
    home = tmp_path_factory.mktemp("maieutic-home")
    monkeypatch.setenv("MAIEUTIC_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def _session_home(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("maieutic-shared-home")


@pytest.fixture
def shared_home(isolated_home, _session_home, monkeypatch) -> Path:
    """A MAIEUTIC_HOME shared by every test of this pytest process that asks for it, in
    place of the test's own: its embedding cache stays warm from one test to the next.

    For tests over the released files that check figures and labels, not what is
    encoded, cached or called: the first encodes the data, the others read the
    vectors it stored (the same vectors, so the same labels; a test of the cache or of
    encode counts keeps its own empty home). Tests that use it are in one xdist group
    per data set (``pytest.mark.xdist_group``), so one worker warms each."""
    monkeypatch.setenv("MAIEUTIC_HOME", str(_session_home))
    return _session_home


@pytest.fixture(scope="module")
def ray_cluster(tmp_path_factory) -> dict[str, str]:
    """The variables (``RAY_ADDRESS``, Ray's authentication mode) that join one Ray
    instance shared by the module's runs (``tests/ray_host.py``), for a module of many
    Ray runs that are not about the local instance: they join it, as runs join a
    cluster, instead of starting one each. The instance stops with the module."""
    pytest.importorskip("ray", reason="the ray engine needs: pip install 'maieutic[ray]'")
    from tests.ray_host import RayHost

    host = RayHost(tmp_path_factory.mktemp("ray-host-home"))
    yield host.env
    host.close()


@pytest.fixture
def cqs_dev() -> Path:
    """The public development split of the critical-questions data (skips when absent)."""
    if not CQS_DEV.exists():
        pytest.skip(f"shared data not found at {CQS_DEV} (clone with ../shared beside the repo)")
    return CQS_DEV


@pytest.fixture
def focus_dir() -> Path:
    """The released FOCUS development files (skips when absent)."""
    if not (FOCUS_DIR / "dev_gold.csv").exists():
        pytest.skip(f"shared data not found at {FOCUS_DIR} (clone with ../shared beside the repo)")
    return FOCUS_DIR


def write_json(path: Path, payload) -> Path:
    """Write a JSON file and return its path."""
    path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    return path


def plan_interventions(n: int, marked: int | None = None) -> dict:
    """``n`` short unlabelled interventions ``R_00``…, one claim and one reason each;
    the one at ``marked`` ends with ``FAILME`` (scripted generators fail on it)."""
    return {
        f"R_{i:02d}": {
            "intervention_id": f"R_{i:02d}",
            "intervention": f'SPEAKER: "Plan {i} must pass because costs rose {i} percent."'
            + (" FAILME" if i == marked else ""),
            "cqs": [],
        }
        for i in range(n)
    }


def one_reference(tmp_path: Path, cqs: list | None = None) -> Path:
    """A one-intervention labelled dataset ("I": "We must act.") written to tmp_path."""
    refs = {
        "I": {
            "intervention_id": "I",
            "intervention": "We must act.",
            "cqs": cqs or [{"id": "a", "cq": "Why act now?", "label": "Useful"}],
        }
    }
    return write_json(tmp_path / "d.json", refs)


class CliResult:
    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err


@pytest.fixture
def cli(capsys):
    """Run ``maieutic`` in-process; returns exit code, stdout and stderr."""

    def invoke(*argv: str) -> CliResult:
        code = run([str(a) for a in argv])
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return invoke


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory):
    """llama-cpp-python's OpenAI-compatible server with the embedded SmolLM2, on a free
    loopback port: started once per pytest process for every test that asks, stopped
    (and checked stopped) at its end. Its log and llama.cpp's verdict go to a state
    folder of its own, never the user's. Skips when llama_cpp is absent."""
    pytest.importorskip("llama_cpp", reason="the llama.cpp server needs: maieutic setup-llm")
    from maieutic.llm.server import LocalServer

    with pytest.MonkeyPatch.context() as patched:
        patched.setenv("MAIEUTIC_HOME", str(tmp_path_factory.mktemp("llama-server-home")))
        running = LocalServer().start()
    try:
        yield running
    finally:
        running.stop()
    assert running.process.poll() is not None


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, for a test module's pages (skips when absent)."""
    from tests.test_web_browser import launched_chromium

    with launched_chromium() as launched:
        yield launched
