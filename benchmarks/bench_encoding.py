"""Where a cold ``evaluate cqs`` spends its time: the embedded MiniLM's sentences per
second under each candidate setting, on the texts one submission's run encodes.

Prints, for the development references and one submission's questions (the texts a
cold run encodes; ``--limit`` caps them):

- how many of the run's texts are distinct (each is encoded once);
- the model library's own ``encode`` over the whole list at batch sizes 16–128 (it sorts
  each call's texts by characters), with every core and with one thread;
- maieutic's encoder (texts ordered by word pieces, one model call per batch) at batch
  sizes 16–64, and on the ONNX backend (``--onnx``; the one-time export is not timed);
- the padded word pieces each ordering makes the model read;
- the time to load each backend in a fresh interpreter (imports and model files).

    python benchmarks/bench_encoding.py [--limit 2000] [--onnx]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _submissions import distinct_texts, make_submissions

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "cqs" / "validation-dev.json"

_LOAD_SCRIPT = """
import sys, time
start = time.perf_counter()
from maieutic.embed.encoder import Encoder
encoder = Encoder(backend=sys.argv[1])
encoder.load()
encoder.encode(["warm up"])
print(time.perf_counter() - start)
"""


def rate(encode, texts: list[str]) -> float:
    """Texts per second for one call of ``encode`` over ``texts`` (after a warm-up)."""
    encode(texts[:32])
    start = time.perf_counter()
    encode(texts)
    return len(texts) / (time.perf_counter() - start)


def padded(lengths: np.ndarray, order: np.ndarray, batch: int) -> int:
    """Word pieces the model reads when ``order`` is cut into batches of ``batch``."""
    return int(
        sum(
            lengths[order[i : i + batch]].max() * len(order[i : i + batch])
            for i in range(0, len(order), batch)
        )
    )


def load_seconds(backend: str) -> float:
    """Seconds to import, load and first call a backend in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", _LOAD_SCRIPT, backend], check=True, capture_output=True, text=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=2000, help="texts to time (0: all)")
    parser.add_argument("--onnx", action="store_true", help="also time the ONNX backend")
    args = parser.parse_args()
    import torch

    from maieutic.embed.encoder import Encoder

    work = Path(tempfile.mkdtemp(prefix="maieutic-bench-enc-"))
    submission = make_submissions(args.data, 1, work / "subs")
    every = [
        q["cq"].strip() for item in json.loads(args.data.read_text()).values() for q in item["cqs"]
    ] + [q["cq"] for item in json.loads(submission[0].read_text()).values() for q in item["cqs"]]
    texts = distinct_texts(args.data, submission)
    print(
        f"one submission's run: {len(every):,} texts, {len(texts):,} distinct (each encoded once)"
    )
    texts = texts[: args.limit] if args.limit else texts
    print(f"timed on {len(texts):,} of them; {torch.get_num_threads()} torch threads")

    encoder = Encoder()
    model = encoder.load()
    lengths = np.array([len(r) for r in model.tokenizer(texts, truncation=False)["input_ids"]])
    by_chars = np.argsort([-len(t) for t in texts], kind="stable")
    by_pieces = np.argsort(-lengths, kind="stable")
    print(f"word pieces: {lengths.sum():,} in all, {lengths.mean():.1f} per text")
    for batch in (32, 64):
        print(
            f"  padded at batch {batch}: by characters {padded(lengths, by_chars, batch):,}, "
            f"by word pieces {padded(lengths, by_pieces, batch):,}"
        )

    def library(batch: int):
        return lambda xs: model.encode(xs, batch_size=batch, normalize_embeddings=True)

    for batch in (16, 32, 64, 128):
        print(f"library encode, batch {batch}: {rate(library(batch), texts):.0f} texts/s")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    print(f"library encode, batch 64, 1 thread: {rate(library(64), texts):.0f} texts/s")
    torch.set_num_threads(threads)
    for backend in ("torch", "onnx") if args.onnx else ("torch",):
        for batch in (16, 32, 64):
            ours = Encoder(backend=backend, batch_size=batch)
            print(f"maieutic {backend}, batch {batch}: {rate(ours.encode, texts):.0f} texts/s")
    for backend in ("torch", "onnx") if args.onnx else ("torch",):
        print(f"load {backend} in a fresh interpreter: {load_seconds(backend):.1f} s")


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    main()
