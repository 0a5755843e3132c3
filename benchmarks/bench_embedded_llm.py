"""Tokens per second of the embedded SmolLM2-135M-Instruct in each runtime.

For each intervention of the bundled sample dataset, the ``detailed`` generation prompt
is answered with no cache (temperature 0, at most 128 tokens, seed 0), one call at a
time, by llama-cpp-python in-process, by transformers in-process (the runtime that
needs no compiler) and by llama-cpp-python's OpenAI-compatible server on loopback.
transformers runs twice: its first load converts the GGUF and keeps the result under
MAIEUTIC_HOME (here a fresh temporary directory); the second loads what was kept, as
every later process does. Prints, per runtime, the one-time llama.cpp crash check (a
child process, on the first use of a build only), the load time (process start for
the server), the completion tokens, the generation time and tokens per second. The
server applies its own default repeat penalty (1.1), so its replies, and their
lengths, differ.

    python benchmarks/bench_embedded_llm.py [--max-tokens 128] [--runtime NAME ...]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator

RUNTIMES = ("llamacpp", "transformers", "server")
# transformers twice: the first load converts the GGUF and keeps the result, later ones
# (every later process) load that
DEFAULT_RUNS = ("llamacpp", "transformers", "transformers", "server")


def requests(max_tokens: int) -> list:
    """One chat request per sample intervention, with the ``detailed`` prompt."""
    from maieutic.llm.types import ChatRequest, GenerationParams
    from maieutic.samples import sample_path
    from maieutic.tasks.cqs.data import load_cq_dataset
    from maieutic.tasks.cqs.prompts import PromptBuilder

    dataset = load_cq_dataset(sample_path("cqs/sample_dataset.json"))
    builder = PromptBuilder("detailed")
    params = GenerationParams(temperature=0.0, max_tokens=max_tokens, seed=0)
    return [
        ChatRequest.of(builder.messages(item), params=params)
        for item in dataset.interventions.values()
    ]


@contextlib.contextmanager
def loaded(runtime: str, timings: dict) -> Iterator[object]:
    """A backend of ``runtime`` with its model loaded (the server started); records in
    ``timings`` the one-time llama.cpp crash check (``check``) and the load (``load``)."""
    from maieutic.llm.backends.local import smollm2_gguf_path
    from maieutic.llm.probe import llamacpp_works

    start = time.perf_counter()
    if runtime != "transformers":
        llamacpp_works(smollm2_gguf_path())  # what a first use costs, once per build
    timings["check"] = time.perf_counter() - start
    start = time.perf_counter()
    if runtime == "server":
        from maieutic.llm.backends.openai_compat import OpenAICompatibleBackend
        from maieutic.llm.server import SERVED_MODEL_NAME, LocalServer

        with LocalServer() as server:
            timings["load"] = time.perf_counter() - start
            yield OpenAICompatibleBackend(server.base_url, model=SERVED_MODEL_NAME)
        return
    from maieutic.llm.backends.embedded import embedded_backend

    backend = embedded_backend(runtime=runtime)
    backend.load()
    timings["load"] = time.perf_counter() - start
    yield backend


def measure(runtime: str, batch: list) -> dict:
    """Load, then answer every request once; the figures of one runtime."""
    from maieutic.llm.backends.converted import converted_dir
    from maieutic.llm.backends.local import smollm2_gguf_path
    from maieutic.llm.client import CallFailed, LLMClient

    row: dict = {"runtime": runtime}
    if runtime == "transformers":
        kept = converted_dir(smollm2_gguf_path()).is_dir()
        row["runtime"] = "transformers" + (" (kept)" if kept else " (1st)")
    with loaded(runtime, row) as backend:
        client = LLMClient(backend, store=None, concurrency=1, timeout_s=900)
        start = time.perf_counter()
        results = client.run_all(batch)
        row["wall"] = time.perf_counter() - start
    failed = [r for r in results if isinstance(r, CallFailed)]
    if failed:
        raise SystemExit(f"{runtime}: {len(failed)} calls failed: {failed[0]}")
    row["tokens"] = sum(r.completion_tokens or 0 for r in results)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--runtime", choices=RUNTIMES, action="append")
    args = parser.parse_args()
    # a fresh state directory: the crash check runs as a user's first call would
    os.environ.setdefault("MAIEUTIC_HOME", tempfile.mkdtemp(prefix="maieutic-bench-llm-"))
    batch = requests(args.max_tokens)
    print(
        f"{len(batch)} prompts (detailed), temperature 0, max_tokens {args.max_tokens}, "
        f"seed 0, one call at a time, {os.cpu_count()} cores"
    )
    print(
        f"{'runtime':>20}  {'check s':>7}  {'load s':>6}  {'tokens':>6}  {'gen s':>6}  "
        f"{'tokens/s':>8}"
    )
    for runtime in args.runtime or DEFAULT_RUNS:
        row = measure(runtime, batch)
        print(
            f"{row['runtime']:>20}  {row['check']:7.1f}  {row['load']:6.1f}  {row['tokens']:6d}  "
            f"{row['wall']:6.1f}  "
            f"{row['tokens'] / row['wall']:8.1f}"
        )


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    main()
