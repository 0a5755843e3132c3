#!/usr/bin/env bash
# Install maieutic with its test extras into .venv and run the linter and the full test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
. .venv/bin/activate
# torch first, pinned: its CPU build is on local disk here, and an unpinned torch would
# pull several GB of CUDA packages.
pip install -q torch==2.13.0
pip install -q -e '.[test]'
ruff check src tests benchmarks
ruff format --check src tests benchmarks
pytest "$@"
