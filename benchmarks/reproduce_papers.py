"""Reproduce the analyses of the three benchmark papers whose data is released here —
FOCUS, CompQA and AURA — each figure beside the paper's, in one command.

    python benchmarks/reproduce_papers.py [--data-dir ../shared/data] [--only focus,compqa,aura]

Each paper has its own script (``reproduce_focus.py``, ``reproduce_compqa.py``,
``reproduce_aura.py``) and its own page in ``docs/`` listing every table and figure with
the command that reproduces it; this runs the three scripts one after the other and
ends with each one's wall time and exit status. The CQs paper's script,
``reproduce_cqs.py``, is separate: it needs the embedding cache warm to be quick.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

PAPERS = ("focus", "compqa", "aura")


def _run(paper: str, data_dir: Path) -> tuple[int, float]:
    module = importlib.import_module(f"reproduce_{paper}")
    print(f"\n{'=' * 20} {paper} {'=' * 20}", flush=True)
    start = time.perf_counter()
    status = module.main(["--data-dir", str(data_dir / paper)])
    return int(status or 0), time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    """Run each paper's reproduction script; the exit status is the worst of theirs."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=Path("../shared/data"))
    parser.add_argument("--only", default=",".join(PAPERS), help="comma-separated papers")
    args = parser.parse_args(argv)
    chosen = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = sorted(set(chosen) - set(PAPERS))
    if unknown:
        parser.error(f"--only: unknown paper {', '.join(unknown)} (known: {', '.join(PAPERS)})")
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    outcomes = {paper: _run(paper, args.data_dir) for paper in chosen}
    print("\n" + "=" * 48)
    for paper, (status, seconds) in outcomes.items():
        print(f"{paper:8} exit {status}  {seconds:6.1f} s")
    return max(status for status, _ in outcomes.values())


if __name__ == "__main__":
    sys.exit(main())
