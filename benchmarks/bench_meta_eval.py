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
    from maieutic.data.cqs import load_cq_dataset
    from maieutic.embed.encoder import Encoder
    from maieutic.embed.store import EmbeddingStore
    from maieutic.tasks.cqs.matchers import ChrfMatcher, EmbeddingMatcher
    from maieutic.tasks.cqs.meta_eval import agreement_report, leave_one_out

    dataset = load_cq_dataset(args.data)
    if args.evaluator == "sts":
        matcher = EmbeddingMatcher(Encoder(), EmbeddingStore())
    else:
        matcher = ChrfMatcher()
    items = leave_one_out(dataset, matcher, matcher.default_threshold)
    report = agreement_report([i.human for i in items], [i.predicted for i in items])
    wall = time.perf_counter() - start
    distinct = len({q.cq for i in dataset.interventions.values() for q in i.cqs})
    encoded = matcher.encoder.n_encoded if args.evaluator == "sts" else 0
    print(
        f"{args.evaluator} leave-one-out over {len(items)} references: {wall:.1f} s "
        f"(cold cache, model load included; budget 60 s); texts encoded {encoded} of "
        f"{distinct} distinct"
    )
    print(
        f"kappa NAE kept {report['kappa_nae_kept']:.3f}, NAE dropped "
        f"{report['kappa_nae_dropped']:.3f}, NAE rate {100 * report['nae_rate']:.1f}% "
        f"at threshold {matcher.default_threshold}"
    )


if __name__ == "__main__":
    main()
