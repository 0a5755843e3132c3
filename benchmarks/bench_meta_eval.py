"""Benchmark of leave-one-out meta-evaluation on the development references.

Times ``maieutic meta-eval cqs --evaluator sts`` over all references from a cold
embedding cache (model load included) and reports the encode count, then prints
the kappas and NAE rates. The issue's budget is 60 s on 2 cores.

    python benchmarks/bench_meta_eval.py [--data ../shared/data/cqs/validation-dev.json]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "cqs" / "validation-dev.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--evaluator", default="sts", choices=["sts", "chrf"])
    args = parser.parse_args()
    if not args.data.exists():
        sys.exit(f"data not found: {args.data}")
    import os

    os.environ["MAIEUTIC_HOME"] = tempfile.mkdtemp(prefix="maieutic-bench-meta-")
    start = time.perf_counter()
    from maieutic.registry import create
    from maieutic.tasks.cqs.data import load_cq_dataset
    from maieutic.tasks.cqs.meta_eval import leave_one_out, report

    dataset = load_cq_dataset(args.data)
    evaluator = create("evaluator", task="cqs", name=args.evaluator)
    items = leave_one_out(dataset, evaluator)
    result = report(items)
    wall = time.perf_counter() - start
    distinct = len({q.cq for i in dataset.interventions.values() for q in i.cqs})
    matcher = evaluator.matcher
    encoded = matcher.encoder.n_encoded if args.evaluator == "sts" else 0
    print(
        f"{args.evaluator} leave-one-out over {len(items)} references: {wall:.1f} s "
        f"(cold cache, model load included; budget 60 s); texts encoded {encoded} of "
        f"{distinct} distinct"
    )
    print(
        f"kappa NAE kept {result['kappa_nae_kept']:.3f}, NAE dropped "
        f"{result['kappa_nae_dropped']:.3f}, NAE rate {100 * result['nae_rate']:.1f}% "
        f"at threshold {evaluator.threshold:g}"
    )


if __name__ == "__main__":
    main()
