"""How fast ``maieutic ask`` answers on the model-free path.

    python benchmarks/bench_ask.py [--n 30]

Asks about the first N interventions of the CQs dev data (paragraph-long arguments)
with an empty embedding cache, in one process: the first ask includes loading the
embedding model; the rest show the per-paragraph time after it. Then one document
(the AURA sample passage, with its question set assessed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def main() -> None:
    """Print first-ask and per-paragraph times."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=30)
    args = parser.parse_args()
    os.environ["MAIEUTIC_HOME"] = tempfile.mkdtemp()  # a cold embedding cache
    from maieutic.ask import AskOptions, ask_text

    texts = [
        v["intervention"]
        for v in json.loads((DATA / "cqs/validation-dev.json").read_text()).values()
    ]
    texts = texts[: args.n + 1]
    start = time.perf_counter()
    ask_text(texts[0], AskOptions(document=False))
    first = time.perf_counter() - start
    times = []
    for text in texts[1:]:
        start = time.perf_counter()
        ask_text(text, AskOptions(document=False))
        times.append(time.perf_counter() - start)
    times.sort()
    print(f"first ask (loads the embedding model): {first:.2f} s")
    print(
        f"next {len(times)} paragraphs (mean {statistics.mean(len(t) for t in texts[1:]):.0f} "
        f"characters): median {statistics.median(times) * 1000:.0f} ms, "
        f"p95 {times[int(0.95 * (len(times) - 1))] * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms"
    )
    passage = json.loads((DATA / "aura/sample_input.json").read_text())["passage"]
    start = time.perf_counter()
    result = ask_text(passage, AskOptions(document=True))
    print(
        f"document ({len(passage)} characters, {len(result.aura['questions'])} questions "
        f"assessed by AURA): {(time.perf_counter() - start) * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
