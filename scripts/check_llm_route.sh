#!/usr/bin/env bash
# The README's no-compiler route to the embedded LLM, in a virtual environment that holds
# only what that route installs: torch, maieutic, then `maieutic setup-llm`; then one
# generation with the LLM generator on the bundled sample. A route that works only in
# the test environment (which has every extra) fails here. Needs the package registry.
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
python3 -m venv "$WORK/venv"
. "$WORK/venv/bin/activate"
# the pinned versions, as the README's commands take them; setup-llm's own pip runs
# inherit them through PIP_CONSTRAINT
export PIP_CONSTRAINT="$PWD/constraints.txt"
pip install -q torch==2.13.0
pip install -q .
maieutic setup-llm
export MAIEUTIC_HOME="$WORK/home" MAIEUTIC_LLM_RUNTIME=transformers MAIEUTIC_QUIET=1
maieutic generate cqs --generator llm --limit 1 --max-tokens 64 \
  --data src/maieutic/tasks/cqs/samples/sample_dataset.json --out "$WORK/sub.json" || code=$?
# exit 1 is a generation that fell short (the 135M model may write too few questions);
# anything else (a missing package, a crash) fails the route
if [ "${code:-0}" -gt 1 ]; then exit "$code"; fi
python -c "import json,sys; d=json.load(open('$WORK/sub.json')); assert len(d) == 1, d"
echo "the README's setup-llm route works in a fresh environment"
