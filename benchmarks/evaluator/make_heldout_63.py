"""Fix the interventions held out of every choice made for issue 63's learned
reference-based evaluator, before anything of it is built or tuned.

The rule: of the CQs development files' interventions, sorted by id, a draw of
``random.Random(63)`` holds out 8 of the 16 test-dev interventions (their shared-task
systems' questions carry people's labels in extended_test-dev.json: the figures the
issue's goals are about) and a quarter of the 132 validation-dev interventions (their
references, each left out in turn). Building and tuning use the rest only; the
held-out part is scored once per built candidate, and its figures are reported as
they come.

    python benchmarks/evaluator/make_heldout_63.py            # writes heldout_63.json
    python benchmarks/evaluator/make_heldout_63.py --check    # the file is the rule's
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2] / "shared" / "data" / "cqs"
OUT = HERE / "heldout_63.json"
SEED = 63
NOTE = (
    "Issue 63: interventions held out of every choice made for the learned "
    "reference-based evaluator (fixed 2026-12-07, before it was built or tuned), drawn "
    "by benchmarks/evaluator/make_heldout_63.py: 8 of the 16 test-dev interventions "
    "(their shared-task system questions, labelled by people in extended_test-dev.json, "
    "are what the issue's goals measure) and 33 of the 132 validation-dev interventions "
    "(references left out in turn). Building and tuning use the other 8 test-dev and 99 "
    "validation-dev interventions only. The shipped usefulness judge was trained on all "
    "of them: a feature taken from it is in-sample here, so a candidate that uses one "
    "uses a judge retrained on the building part alone."
)


def heldout() -> dict:
    """The held-out interventions, by the rule above."""
    rng = random.Random(SEED)
    test = sorted(json.loads((DATA / "test-dev.json").read_text(encoding="utf-8")))
    validation = sorted(json.loads((DATA / "validation-dev.json").read_text(encoding="utf-8")))
    return {
        "note": NOTE,
        "seed": SEED,
        "cqs_test_dev": sorted(rng.sample(test, len(test) // 2)),
        "cqs_validation_dev": sorted(rng.sample(validation, len(validation) // 4)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the file")
    args = parser.parse_args()
    drawn = heldout()
    if args.check:
        same = json.loads(OUT.read_text(encoding="utf-8")) == drawn
        print("heldout_63.json is the rule's draw" if same else "heldout_63.json differs")
        sys.exit(0 if same else 1)
    OUT.write_text(json.dumps(drawn, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(drawn['cqs_test_dev'])} test-dev, "
          f"{len(drawn['cqs_validation_dev'])} validation-dev interventions")  # fmt: skip


if __name__ == "__main__":
    main()
