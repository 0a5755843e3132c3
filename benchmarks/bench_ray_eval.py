"""The CQs STS evaluation of 21 submissions on the in-process engine and on the Ray
engine (a local Ray instance on this machine's cores): wall time, peak RSS of the
driver, the overhead ratio, and whether every label, matched reference and similarity
is the same. Each run is a fresh interpreter with an empty embedding cache.

    python benchmarks/bench_ray_eval.py [--data ../shared/data/cqs/validation-dev.json]
        [--submissions 21] [--actors 2]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _api import run_isolated
from _submissions import make_submissions

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "cqs" / "validation-dev.json"


def scored(path: Path) -> list:
    """Every question's label, reference and similarity, per submission."""
    results = json.loads(path.read_text())["results"]
    return [
        [(q["label"], q.get("best_reference_id"), q.get("similarity"))
         for item in r["items"] for q in item["cqs"]]
        for r in results
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--submissions", type=int, default=21)
    parser.add_argument("--actors", type=int, default=2)
    args = parser.parse_args()
    if not args.data.exists():
        sys.exit(f"no data at {args.data}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        submissions = make_submissions(args.data, args.submissions, work / "subs")
        figures = {}
        for engine in ("local", "ray"):
            out = work / f"results-{engine}.json"
            kwargs = {"task": "cqs", "data": str(args.data), "evaluator": "sts",
                      "submissions": [str(p) for p in submissions], "out": str(out),
                      "engine": engine}  # fmt: skip
            wall, rss = run_isolated("evaluate", kwargs, work / f"home-{engine}")
            figures[engine] = (wall, rss, scored(out))
            print(f"{engine:5}  {wall:6.1f} s  driver peak RSS {rss:5.0f} MB", flush=True)
        same = figures["local"][2] == figures["ray"][2]
        n = sum(len(s) for s in figures["local"][2])
        print(f"ray / local time: {figures['ray'][0] / figures['local'][0]:.2f}; "
              f"{n} questions in {args.submissions} submissions; labels, references and "
              f"similarities identical: {same}")  # fmt: skip


if __name__ == "__main__":
    main()
