"""Speed of the claims generator (the default of ``generate cqs`` and ``ask``).

    python benchmarks/bench_claims.py

Prints, on this machine: the time to load the parser (spaCy's small English pipeline)
and the embedding model (which ``ask`` needs only for a long document's AURA part);
``maieutic generate cqs`` on the 132 CQs dev interventions as a command (process start
and parser load included), and the per-intervention time in-process, scaled to 186
interventions (the size of the benchmark's validation set); and ``ask`` per paragraph
after the models are loaded (median, p95, max over 30 interventions).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

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
        command = [sys.executable, "-m", "maieutic", "generate", "cqs", "--data", str(DATA)]
        done, wall = _timed(
            lambda: subprocess.run([*command, "--out", str(out)], capture_output=True, text=True)
        )
        if done.returncode:
            raise SystemExit(done.stderr)
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
