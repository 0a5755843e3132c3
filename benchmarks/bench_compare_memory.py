"""Peak memory and time of ``maieutic compare`` as the units grow (issue 50).

    python benchmarks/bench_compare_memory.py [--units 10000 30000 100000] [--work DIR]

For each number of units, a results file of two systems with that many interventions
(``tests/large_results.py``: the sample dataset's real results, repeated under new ids
with seeded scores) is compared with the defaults (2,000 bootstrap resamples, 10,000
shuffles) in a process of its own; printed: the process's peak resident memory (its
``ru_maxrss``, read by ``os.wait4``), its wall time (start and file reading included)
and the sha256 of the comparison, which must not change from one version to the next.
With ``--without-questions`` the items carry no scored questions: the file is a fifth
the size, and what is left is mostly ``compare``'s own memory.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.large_results import large_results, sample_results  # noqa: E402


def run_compare(results: Path, out: Path, *options: str) -> tuple[float, float]:
    """``maieutic compare`` in a process of its own: (peak RSS in MB, seconds)."""
    command = [sys.executable, "-m", "maieutic", "-q", "compare", str(results)]
    start = time.perf_counter()
    process = subprocess.Popen([*command, "--out", str(out), *options], stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    took = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"maieutic compare exited {process.returncode}")
    return usage.ru_maxrss / 1024, took  # ru_maxrss is in KiB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--units", type=int, nargs="+", default=[10_000, 30_000, 100_000])
    parser.add_argument("--work", type=Path, default=None)
    parser.add_argument(
        "--without-questions",
        action="store_true",
        help="results without their scored questions (reading the file then costs less)",
    )
    parser.add_argument("options", nargs="*", help="more options of maieutic compare")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = args.work or Path(scratch)
        base = sample_results(work)
        print(f"{'units':>8} {'peak RSS MB':>12} {'seconds':>8}  comparison sha256")
        for n in args.units:
            light = "-without-questions" if args.without_questions else ""
            results = work / f"results-{n}{light}.json"
            if not results.exists():
                large_results(base, n, results, questions=not args.without_questions)
            out = work / f"compare-{n}.json"
            rss, took = run_compare(results, out, *args.options)
            comparisons = json.loads(out.read_text())["comparisons"]
            digest = hashlib.sha256(json.dumps(comparisons, sort_keys=True).encode())
            print(f"{n:>8} {rss:>12.0f} {took:>8.1f}  {digest.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
