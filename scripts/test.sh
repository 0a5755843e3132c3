#!/usr/bin/env bash
# Install maieutic with its test extras into .venv-test, then run the linters and the
# full test suite. CI runs exactly this (see .ci/run); extra arguments go to pytest.
#
#   bash scripts/test.sh           everything (what CI runs)
#   bash scripts/test.sh --fast    the edit-test loop: the tests not marked slow, in the
#                                  environment a full run made (installed once, if none)
#   bash scripts/test.sh --install-only   the environment alone (scripts/lock.py)
#
# Installs take the pinned versions of constraints.txt, the ones the suite passed with
# (checked first to be current with pyproject.toml); MAIEUTIC_UNPINNED=1 resolves
# pyproject.toml's ranges instead, as `python scripts/lock.py` does to refresh the pins.
#
# The tests run on pytest-xdist workers, one per core up to four (each holds the
# models it loads; MAIEUTIC_TEST_WORKERS sets another number, 0 for none); tests that
# share an expensive thing stay on one worker (tests/conftest.py, XDIST_GROUPS).
# The tests have their own environment (MAIEUTIC_TEST_VENV to name another): installing
# the test extras into the .venv that `maieutic` runs from would replace packages under
# a running command (a "Bus error"), and would mix `maieutic setup-llm`'s --no-deps
# install with pip's resolver.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${MAIEUTIC_TEST_VENV:-.venv-test}"
FAST=""
INSTALL_ONLY=""
if [ "${1:-}" = "--fast" ]; then
  FAST=1
  shift
elif [ "${1:-}" = "--install-only" ]; then
  INSTALL_ONLY=1
  shift
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
PINS=(-c constraints.txt)
if [ -n "${MAIEUTIC_UNPINNED:-}" ]; then
  PINS=()
else
  python3 scripts/lock.py --check
fi
install() {
  python3 -m venv "$VENV"
  . "$VENV/bin/activate"
  # torch first, pinned: its CPU build is on local disk here, and an unpinned torch would
  # pull several GB of CUDA packages.
  pip install -q "${PINS[@]}" torch==2.13.0
  # llama-cpp-python compiles llama.cpp; no registry this project reaches has a built
  # wheel. Its default build targets the build machine's CPU, including AMX kernels that
  # crash on virtual machines which do not grant AMX; a portable AVX2 build works
  # everywhere. Only what a text model needs is built: no multimodal library and no
  # llama.cpp "common" library (llama_cpp_lean.cmake), about a third of the full build's
  # compile work. The same flags as maieutic.llm.probe.build_cmake_args (a test checks).
  # The wheel is kept in a wheelhouse so the build happens once per machine.
  LLAMA_VERSION=0.3.36
  LEAN_CMAKE="$PWD/src/maieutic/llm/llama_cpp_lean.cmake"
  WHEELHOUSE="${MAIEUTIC_WHEELHOUSE:-$HOME/.cache/maieutic/wheels}"
  mkdir -p "$WHEELHOUSE"
  if ! ls "$WHEELHOUSE"/llama_cpp_python-"$LLAMA_VERSION"-*.whl >/dev/null 2>&1; then
    echo "building llama-cpp-python $LLAMA_VERSION (portable CPU build, about 2.5 CPU-minutes)"
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF -DLLAVA_BUILD=OFF '-DCMAKE_PROJECT_llama.cpp_INCLUDE=$LEAN_CMAKE'" \
      pip wheel -q --no-deps --no-cache-dir --no-binary llama-cpp-python -w "$WHEELHOUSE" \
      "llama-cpp-python==$LLAMA_VERSION"
  fi
  pip install -q "${PINS[@]}" --find-links "$WHEELHOUSE" "llama-cpp-python[server]==$LLAMA_VERSION"
  pip install -q "${PINS[@]}" --find-links "$WHEELHOUSE" -e '.[test]'
  # Whatever was installed before (a native build that crashes on this CPU, say), end with
  # the portable wheel in place; pip would otherwise keep a build it sees as satisfying.
  pip install -q --force-reinstall --no-deps --no-index --find-links "$WHEELHOUSE" \
    "llama-cpp-python==$LLAMA_VERSION"
  # The browser tests of `maieutic serve` drive Debian's Chromium (never a downloaded one).
  if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
      apt-get install -y -q chromium >/dev/null 2>&1 \
        || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null 2>&1; } \
        || echo "warning: could not install chromium; the browser tests will be skipped"
    elif command -v sudo >/dev/null 2>&1; then
      sudo apt-get install -y -q chromium >/dev/null 2>&1 \
        || echo "warning: could not install chromium; the browser tests will be skipped"
    fi
  fi
}

if [ -n "$FAST" ] && "$VENV/bin/python" -c "import maieutic, xdist, llama_cpp" 2>/dev/null; then
  . "$VENV/bin/activate"  # the fast lane takes the environment as it is
else
  install
fi
[ -z "$INSTALL_ONLY" ] || exit 0
ruff check src tests benchmarks
ruff format --check src tests benchmarks
WORKERS="${MAIEUTIC_TEST_WORKERS:-$(python -c 'import os; print(min(os.cpu_count() or 1, 4))')}"
[ "$WORKERS" -gt 1 ] 2>/dev/null || WORKERS=0
if [ -n "$FAST" ]; then
  pytest -n "$WORKERS" --dist loadgroup -m "not slow" "$@"
else
  pytest -n "$WORKERS" --dist loadgroup "$@"
fi
