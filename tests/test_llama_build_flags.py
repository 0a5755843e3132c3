"""The llama-cpp-python wheel is built the same lean, portable way by the test script
and by ``maieutic setup-llm --llamacpp``, and what makes it lean ships with the package."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from maieutic.llm import probe

REPO = Path(__file__).resolve().parents[1]


def _test_script_cmake_args() -> list[str]:
    script = (REPO / "scripts" / "test.sh").read_text(encoding="utf-8")
    lean = re.search(r'^\s*LEAN_CMAKE="\$PWD/(.+)"$', script, re.M)
    line = re.search(r'^\s*CMAKE_ARGS="(.+)" \\$', script, re.M)
    assert lean and line, "scripts/test.sh no longer builds with CMAKE_ARGS and LEAN_CMAKE"
    value = line.group(1).replace("$LEAN_CMAKE", str(REPO / lean.group(1)))
    return shlex.split(value)


def test_the_test_script_and_setup_llm_build_with_the_same_flags():
    assert _test_script_cmake_args() == shlex.split(probe.build_cmake_args())


def test_the_build_leaves_out_what_a_text_model_does_not_load():
    args = shlex.split(probe.build_cmake_args())
    assert "-DLLAVA_BUILD=OFF" in args and "-DGGML_NATIVE=OFF" in args
    include = next(a for a in args if a.startswith("-DCMAKE_PROJECT_llama.cpp_INCLUDE="))
    lean = Path(include.split("=", 1)[1])
    # shipped beside the module that names it (package data), so setup-llm finds it
    assert lean == probe.LEAN_CMAKE and lean.is_file()
    text = lean.read_text(encoding="utf-8")
    assert re.search(r"^set\(LLAMA_BUILD_COMMON OFF CACHE BOOL .* FORCE\)$", text, re.M)
