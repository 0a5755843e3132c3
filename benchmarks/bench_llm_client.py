"""Benchmark of the LLM client and of the embedded model's generation speed.

1. Against a local fake OpenAI-compatible server that answers after a fixed delay:
   400 requests at concurrency 16 with 200 ms latency (ideal: 400 / 16 × 0.2 = 5 s),
   then the same requests again, fully cached (must make 0 requests).
2. SmolLM2-135M-Instruct behind llama-cpp-python's server: interventions per minute
   for ``maieutic generate cqs --generator llm``, run as ``maieutic.generate`` (skip
   with --no-smollm).

    python benchmarks/bench_llm_client.py [--requests 400] [--concurrency 16] [--latency 0.2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEV = REPO.parent / "shared" / "data" / "cqs" / "validation-dev.json"


def client_benchmark(n: int, concurrency: int, latency: float) -> None:
    from maieutic.llm.backends.openai_compat import OpenAICompatibleBackend
    from maieutic.llm.client import LLMClient
    from maieutic.llm.store import CallStore
    from maieutic.llm.types import ChatRequest

    class CountingBackend(OpenAICompatibleBackend):
        sent = 0

        async def chat(self, request, timeout):
            self.sent += 1
            return await super().chat(request, timeout)

    store = CallStore(Path(tempfile.mkdtemp()) / "llm.sqlite")
    requests = [
        ChatRequest.of([{"role": "user", "content": f"Question set {i}"}]) for i in range(n)
    ]
    ideal = n / concurrency * latency
    # The fake server runs in its own process, as a real server would, so its request
    # handling does not compete with the client for this interpreter's GIL.
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.fake_server", "--delay", str(latency)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,  # the test helper is found from the repository root
    )
    try:
        base_url = server.stdout.readline().strip()
        for label in ("cold", "cached"):
            backend = CountingBackend(base_url, model="fake")
            client = LLMClient(backend, store, concurrency=concurrency)
            start = time.perf_counter()
            results = client.run_all(requests)
            wall = time.perf_counter() - start
            failed = sum(not hasattr(r, "text") for r in results)
            extra = f" ({wall / ideal:.2f} x the ideal {ideal:.1f} s)" if label == "cold" else ""
            print(
                f"{label}: {n} requests, concurrency {concurrency}, latency {latency * 1000:.0f}"
                f" ms -> {wall:.2f} s{extra}; requests sent to the server: {backend.sent}; "
                f"failed: {failed}"
            )
    finally:
        server.terminate()
        server.wait()


def smollm_benchmark(n_items: int) -> None:
    import maieutic
    from maieutic.llm.server import SERVED_MODEL_NAME, LocalServer

    if not DEV.exists():
        print(f"skipping SmolLM2 throughput: {DEV} not found")
        return
    work = Path(tempfile.mkdtemp(prefix="maieutic-bench-llm-"))
    os.environ["MAIEUTIC_HOME"] = str(work / "home")  # nothing cached
    out = work / "sub.json"
    with LocalServer() as server:
        start = time.perf_counter()
        generation = maieutic.generate(
            "cqs",
            DEV,
            generator="llm",
            base_url=server.base_url,
            llm=SERVED_MODEL_NAME,
            limit=n_items,
            concurrency=1,
            out=out,
        )
        wall = time.perf_counter() - start
    outcomes = generation.runs[0].outcomes
    full = sum(len(o.questions or []) >= 3 for o in outcomes)
    print(f"wrote {out} ({full}/{len(outcomes)} with 3 questions)")
    print(
        f"SmolLM2-135M (llama-cpp-python server, {os.cpu_count()} cores, detailed prompt, "
        f"max 256 tokens): {n_items} interventions in {wall:.1f} s = "
        f"{60 * n_items / wall:.1f} interventions/minute"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--smollm-items", type=int, default=20)
    parser.add_argument("--no-smollm", action="store_true")
    args = parser.parse_args()
    client_benchmark(args.requests, args.concurrency, args.latency)
    if not args.no_smollm:
        smollm_benchmark(args.smollm_items)


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    main()
