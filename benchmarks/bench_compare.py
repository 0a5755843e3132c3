"""Paired comparisons of 21 systems on the CQs validation-dev set: the full pairwise
table, and how long it takes once the results exist.

    python benchmarks/bench_compare.py [--work out/compare]

The 21 systems are the offline generators in every setting that changes their
questions (the claims generator with its own choice or the usefulness judge's; the
template generator with its built-in and with the benchmark's scheme templates, slots
filled once or every way, four selectors) plus three systems of reworded reference
questions (``_submissions.py``, three seeds: close to each other by design), all
scored with the default STS evaluator in one ``maieutic evaluate cqs`` run. Generated
files and results are kept in ``--work`` and reused. The figure the issue asks for is
the time of ``maieutic compare RESULTS --pairwise`` (210 pairs × 2,000 bootstrap
resamples + 10,000 shuffles), printed with how many pairs differ significantly.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from _submissions import make_submissions

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "cqs"
SELECTORS = ("first", "dedup", "overlap", "usefulness")
CLAIMS_SELECTORS = ("first", "usefulness")


def variants() -> dict[str, list[str]]:
    """System name → ``maieutic generate cqs`` options (18 offline settings)."""
    walton = ["--schemes", str(DATA / "walton_schemes.jsonl")]
    walton += ["--scheme-mapping", str(DATA / "schemes_mapping.csv")]
    out = {f"claims-{s}": ["--generator", "claims", "--selector", s] for s in CLAIMS_SELECTORS}
    for fill in ("first", "every"):
        for s in SELECTORS:
            base = ["--generator", "template", "--fill", fill, "--selector", s]
            out[f"template-{fill}-{s}"] = base
            out[f"walton-{fill}-{s}"] = base + walton
    return out


def maieutic(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "maieutic", "-q", *args], check=True)


def build(work: Path) -> Path:
    """The 21 submissions and their results file (made once, then reused)."""
    data = DATA / "validation-dev.json"
    subs = work / "submissions"
    subs.mkdir(parents=True, exist_ok=True)
    for name, options in variants().items():
        path = subs / f"{name}.json"
        if not path.exists():
            maieutic("generate", "cqs", "--data", str(data), "--out", str(path), *options)
    if not (subs / "reworded-references-2.json").exists():
        for n, made in enumerate(make_submissions(data, 3, work / "tmp")):
            made.rename(subs / f"reworded-references-{n}.json")
    results = work / "results.json"
    if not results.exists():
        files = sorted(str(p) for p in subs.glob("*.json") if not p.name.endswith(".meta.json"))
        maieutic("evaluate", "cqs", "--data", str(data), *files, "--out", str(results))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=ROOT / "out" / "compare")
    args = parser.parse_args()
    results = build(args.work)
    table = args.work / "pairwise.json"
    start = time.perf_counter()
    maieutic("compare", str(results), "--pairwise", "--out", str(table))
    took = time.perf_counter() - start
    import json

    record = json.loads(table.read_text())
    pairs = record["comparisons"]
    significant = sum(p["significant"] for p in pairs)
    print(f"systems: {len(record['systems'])}, pairs: {len(pairs)}, units: {record['n_units']}")
    print(f"pairs differing significantly (p < 0.05): {significant} of {len(pairs)}")
    print(f"maieutic compare --pairwise, wall time (process start included): {took:.1f} s")


if __name__ == "__main__":
    main()
