"""Tokens per second of the embedded SmolLM2-135M-Instruct in both in-process runtimes.

For each intervention of the bundled sample dataset, the ``detailed`` generation prompt
is answered with no cache (temperature 0, at most 128 tokens, seed 0), one call at a
time, first by llama-cpp-python, then by transformers (the runtime that needs no
compiler). Prints load time, completion tokens, generation time and tokens/s.

    python benchmarks/bench_embedded_llm.py [--max-tokens 128]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time


def measure(runtime: str, max_tokens: int) -> None:
    from maieutic.data.cqs import load_cq_dataset
    from maieutic.llm.backends.embedded import embedded_backend
    from maieutic.llm.client import LLMClient
    from maieutic.llm.types import ChatRequest, GenerationParams
    from maieutic.samples import sample_path
    from maieutic.tasks.cqs.prompts import PromptBuilder

    dataset = load_cq_dataset(sample_path("cqs/sample_dataset.json"))
    builder = PromptBuilder("detailed")
    params = GenerationParams(temperature=0.0, max_tokens=max_tokens, seed=0)
    requests = [
        ChatRequest.of(builder.messages(item), params=params)
        for item in dataset.interventions.values()
    ]
    start = time.perf_counter()
    backend = embedded_backend(runtime=runtime)
    client = LLMClient(backend, store=None, concurrency=1, timeout_s=900)
    client.run_all(requests[:1])  # loads the model (and compiles nothing)
    load = time.perf_counter() - start
    start = time.perf_counter()
    results = client.run_all(requests)
    wall = time.perf_counter() - start
    tokens = sum(r.completion_tokens or 0 for r in results)
    print(
        f"{runtime:>12}: load + first call {load:.1f} s; {len(results)} prompts, "
        f"{tokens} completion tokens in {wall:.1f} s = {tokens / wall:.1f} tokens/s "
        f"({os.cpu_count()} cores)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--runtime", choices=["llamacpp", "transformers"], action="append")
    args = parser.parse_args()
    os.environ.setdefault("MAIEUTIC_HOME", tempfile.mkdtemp(prefix="maieutic-bench-llm-"))
    for runtime in args.runtime or ["llamacpp", "transformers"]:
        measure(runtime, args.max_tokens)


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    main()
