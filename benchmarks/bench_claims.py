"""Speed of the claims generator (the default of ``generate cqs`` and ``ask``).

    python benchmarks/bench_claims.py

Prints, on this machine: the time to load the parser (spaCy's small English pipeline)
and the embedding model (which ``ask`` needs only for a long document's AURA part);
``maieutic generate cqs`` on the 132 CQs dev interventions as a command runs it
(``maieutic.generate`` in a fresh interpreter: process start and parser load
included), and the per-intervention time in-process, scaled to 186 interventions (the
size of the benchmark's validation set); and ``ask`` per paragraph after the models
are loaded (median, p95, max over 30 interventions).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _api import run_isolated

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "cqs" / "validation-dev.json"


def _timed(fn):
    start = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - start


def main() -> None:
    """Print the figures."""
    os.environ["MAIEUTIC_HOME"] = tempfile.mkdtemp()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sub.json"
        call = {"task": "cqs", "data": str(DATA), "generator": "claims", "out": str(out)}
        wall, _ = run_isolated("generate", call, os.environ["MAIEUTIC_HOME"])
    print(f"maieutic generate cqs on 132 dev interventions (command, cold): {wall:.1f} s")

    from maieutic.embed.encoder import shared_encoder
    from maieutic.language.syntax import nlp

    _, parser_load = _timed(nlp)
    _, encoder_load = _timed(lambda: shared_encoder().encode(["warm up"]))
    print(f"load: parser {parser_load:.2f} s; embedding model {encoder_load:.2f} s")

    from maieutic.ask import AskOptions, ask_text
    from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator

    texts = [v["intervention"] for v in json.loads(DATA.read_text()).values()]
    generator = ClaimsCQGenerator()
    _, total = _timed(lambda: [generator.questions_for(t) for t in texts])
    per = total / len(texts)
    print(
        f"in-process: {per * 1000:.0f} ms per intervention; {total:.1f} s for {len(texts)}, "
        f"{per * 186:.1f} s scaled to 186"
    )
    times = sorted(_timed(lambda t=t: ask_text(t, AskOptions(document=False)))[1]
                   for t in texts[1:31])  # fmt: skip
    print(
        f"ask per paragraph (30 interventions, models loaded): median "
        f"{statistics.median(times) * 1000:.0f} ms, p95 {times[int(0.95 * 29)] * 1000:.0f} ms, "
        f"max {times[-1] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
