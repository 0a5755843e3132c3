"""Agreement with people of a CQs evaluator on issue 63's fixed parts: the shared-task
systems' questions of the held-out and the building test-dev interventions, and the
references of the held-out and building validation-dev interventions, each left out
in turn (``heldout_63.json``). Each figure is ``maieutic meta-eval cqs``'s: kappa
three-class and Useful vs rest, NAE kept, with its 95% interval over interventions.

    python benchmarks/evaluator/bench_agreement_63.py [--evaluator sts] [--threshold 0.6]

The figures at the split's fixing (2026-12-07), sts 0.6 with the embedded MiniLM, are
in src/maieutic/tasks/cqs/README.md ("Which evaluator, and what each agrees with").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2] / "shared" / "data" / "cqs"


def _part(name: str, held: set[str], *, held_out: bool, folder: Path) -> Path:
    """``name`` of the shared data with its held-out interventions, or with the rest."""
    released = json.loads((DATA / name).read_text(encoding="utf-8"))
    kept = {k: v for k, v in released.items() if (k in held) == held_out}
    path = folder / f"{len(os.listdir(folder))}-{name}"
    path.write_text(json.dumps(kept), encoding="utf-8")
    return path


def _line(what: str, result: dict) -> str:
    intervals = result["intervals"]

    def show(key: str) -> str:
        if result[key] is None:
            return "undefined"
        bounds = intervals[key]
        low, high = bounds["low"], bounds["high"]
        spread = f" [{low:.3f}, {high:.3f}]" if low is not None else ""
        return f"{result[key]:.3f}{spread}"

    return (
        f"{what:<44} n={result['n']:<5} interventions={intervals['n_units']:<4} "
        f"kappa3 {show('kappa_nae_kept')}  kappaU {show('kappa_useful_nae_kept')}  "
        f"NAE {100 * (result['nae_rate'] or 0):.1f}%"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--evaluator", default="sts")
    parser.add_argument("--threshold", type=float)
    args = parser.parse_args()
    if not (DATA / "extended_test-dev.json").exists():
        sys.exit(f"shared data not found at {DATA}")
    os.environ.setdefault("MAIEUTIC_HOME", tempfile.mkdtemp(prefix="maieutic-bench-63-"))
    from maieutic.registry import create
    from maieutic.tasks.cqs.data import load_cq_dataset
    from maieutic.tasks.cqs.labelled_outputs import load_labelled_outputs
    from maieutic.tasks.cqs.meta_eval import leave_one_out, report
    from maieutic.tasks.cqs.outputs_agreement import judge_outputs

    split = json.loads((HERE / "heldout_63.json").read_text(encoding="utf-8"))
    options = {} if args.threshold is None else {"threshold": args.threshold}
    evaluator = create("evaluator", task="cqs", name=args.evaluator, **options)
    print(f"{args.evaluator} (threshold {evaluator.threshold}) against people's labels")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        held = set(split["cqs_test_dev"])
        for part, held_out in (("held out", True), ("building", False)):
            references = _part("test-dev.json", held, held_out=held_out, folder=folder)
            dataset = load_cq_dataset(references)
            labelled = _part("extended_test-dev.json", held, held_out=held_out, folder=folder)
            outputs = load_labelled_outputs(labelled, dataset)
            items = judge_outputs(dataset, outputs, evaluator)
            print(_line(f"test-dev system questions, {part}", report(items)))
        held = set(split["cqs_validation_dev"])
        for part, held_out in (("held out", True), ("building", False)):
            data = _part("validation-dev.json", held, held_out=held_out, folder=folder)
            dataset = load_cq_dataset(data)
            items = leave_one_out(dataset, evaluator)
            print(_line(f"validation references left out, {part}", report(items)))


if __name__ == "__main__":
    main()
