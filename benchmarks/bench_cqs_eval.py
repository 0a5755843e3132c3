"""Benchmark of ``maieutic evaluate cqs`` (run as ``maieutic.evaluate``, each call in a
fresh interpreter as a command would be) on the development data.

Prints: (a) the floor, the time to encode the run's distinct texts once with the model
alone; (b) one submission, cold cache; (c) the same submission, warm; (d) 20
submissions in one call against the floor for all their distinct texts; and the peak
RSS of each call. Optionally (``--onnx``) the ONNX backend's floor and how many labels
it changes.

    python benchmarks/bench_cqs_eval.py [--data ../shared/data/cqs/validation-dev.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _api import run_isolated
from _submissions import distinct_texts, make_submissions

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATA = REPO.parent / "shared" / "data" / "cqs" / "validation-dev.json"


def evaluate_cqs(data: Path, submissions: list[Path], home: Path, **options) -> tuple[float, float]:
    """``maieutic.evaluate("cqs", …, evaluator="sts")`` in a fresh interpreter; return
    (wall seconds, peak RSS in MB)."""
    kwargs = {
        "task": "cqs",
        "data": str(data),
        "submissions": [str(p) for p in submissions],
        "evaluator": "sts",
        **{k: str(v) if isinstance(v, Path) else v for k, v in options.items()},
    }
    return run_isolated("evaluate", kwargs, home)


_FLOOR_SCRIPT = """
import json, sys, time
start = time.perf_counter()
from maieutic.embed.encoder import Encoder
encoder = Encoder(backend=sys.argv[2])
encoder.load()
loaded = time.perf_counter()
encoder.encode(json.load(open(sys.argv[1])))
print(json.dumps([loaded - start, time.perf_counter() - loaded]))
"""


def floor_seconds(texts: list[str], work: Path, backend: str = "torch") -> tuple[float, float]:
    """(model load seconds, encode seconds) for ``texts`` with the model alone.

    Measured in a child process so that this process stays small: Linux carries a
    parent's peak RSS into children it forks, which would spoil the RSS figures.
    """
    path = work / "floor_texts.json"
    path.write_text(json.dumps(texts), encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-c", _FLOOR_SCRIPT, str(path), backend],
        check=True,
        capture_output=True,
        text=True,
    )
    load, encode = json.loads(out.stdout.strip().splitlines()[-1])
    return load, encode


def labels_of(results_path: Path) -> list[str]:
    results = json.loads(results_path.read_text())["results"]
    return [
        q["label"]
        for r in results
        for item in r["items"]
        if isinstance(item["cqs"], list)
        for q in item["cqs"]
    ]


def leave_one_out_labels(data: Path, backend: str, threshold: float = 0.6) -> list[str]:
    """Each reference, matched against the other references of its intervention."""
    import numpy as np

    from maieutic.embed.encoder import Encoder
    from maieutic.embed.store import EmbeddingStore, embed_texts
    from maieutic.tasks.cqs.data import load_cq_dataset

    dataset = load_cq_dataset(data)
    texts = [q.cq for item in dataset.interventions.values() for q in item.cqs]
    vectors = embed_texts(texts, Encoder(backend=backend), EmbeddingStore())
    labels = []
    for item in dataset.interventions.values():
        matrix = np.stack([vectors[q.cq] for q in item.cqs])
        sims = matrix @ matrix.T
        for i, q in enumerate(item.cqs):
            row = sims[i].copy()
            row[[j for j, r in enumerate(item.cqs) if r.cq == q.cq]] = -np.inf
            j = int(row.argmax())
            labels.append(item.cqs[j].label if row[j] > threshold else "NAE")
    return labels


def onnx_figures(
    data: Path,
    work: Path,
    one: list[Path],
    subs: list[Path],
    texts_one: list[str],
    floor_one: float,
) -> None:
    """The ONNX backend's floor, and the labels it changes against torch."""
    onnx_home = work / "home-onnx"
    evaluate_cqs(data, one, onnx_home, embedding_backend="onnx")  # export once
    os.environ["MAIEUTIC_HOME"] = str(onnx_home)
    onnx_load, onnx_floor = floor_seconds(texts_one, work, backend="onnx")
    print(
        f"onnx floor: {onnx_floor:.1f} s ({len(texts_one) / onnx_floor:.0f} texts/s, "
        f"{floor_one / onnx_floor:.2f}x torch); load {onnx_load:.1f} s"
    )
    onnx_out = work / "onnx.json"
    evaluate_cqs(data, subs, onnx_home, embedding_backend="onnx", out=onnx_out)
    evaluate_cqs(data, subs, work / "home-many", out=work / "torch.json")
    a, b = labels_of(work / "torch.json"), labels_of(work / "onnx.json")
    changed = sum(x != y for x, y in zip(a, b, strict=True))
    print(
        f"onnx vs torch, {len(subs)} submissions: {changed} of {len(a)} labels differ "
        f"({100 * changed / len(a):.2f}%)"
    )
    # Reworded references sit far above the threshold; leave-one-out over the
    # references spreads similarities across it, so it is the sharper check.
    loo = {}
    for backend, home_dir in [("torch", work / "home-many"), ("onnx", onnx_home)]:
        os.environ["MAIEUTIC_HOME"] = str(home_dir)
        loo[backend] = leave_one_out_labels(data, backend)
    changed = sum(x != y for x, y in zip(loo["torch"], loo["onnx"], strict=True))
    n = len(loo["torch"])
    print(
        f"onnx vs torch, leave-one-out over the references: {changed} of {n} labels "
        f"differ ({100 * changed / n:.2f}%)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--submissions", type=int, default=20)
    parser.add_argument("--onnx", action="store_true", help="also measure the onnx backend")
    args = parser.parse_args()
    if not args.data.exists():
        sys.exit(f"data not found: {args.data}")
    work = Path(tempfile.mkdtemp(prefix="maieutic-bench-"))
    subs = make_submissions(args.data, args.submissions, work / "subs")
    one = subs[:1]
    texts_one = distinct_texts(args.data, one)
    texts_all = distinct_texts(args.data, subs)

    load_s, floor_one = floor_seconds(texts_one, work)
    _, floor_all = floor_seconds(texts_all, work)
    print(
        f"texts: one submission {len(texts_one)} distinct, "
        f"{len(subs)} submissions {len(texts_all)} distinct"
    )
    print(
        f"(a) floor, encode once (model alone): {floor_one:.1f} s "
        f"({len(texts_one) / floor_one:.0f} texts/s); model load {load_s:.1f} s"
    )

    home = work / "home"
    cold, rss_cold = evaluate_cqs(args.data, one, home, out=work / "one.json")
    budget = 1.25 * floor_one + load_s
    print(
        f"(b) one submission cold: {cold:.1f} s (budget 1.25 x floor + load = {budget:.1f} s) "
        f"peak RSS {rss_cold:.0f} MB"
    )
    warm, rss_warm = evaluate_cqs(args.data, one, home)
    print(f"(c) same submission warm: {warm:.1f} s (budget 5 s) peak RSS {rss_warm:.0f} MB")
    many, rss_many = evaluate_cqs(args.data, subs, work / "home-many")
    budget_all = 1.25 * floor_all + load_s
    print(
        f"(d) {len(subs)} submissions, one command, cold: {many:.1f} s "
        f"(floor for all distinct texts {floor_all:.1f} s; budget {budget_all:.1f} s) "
        f"peak RSS {rss_many:.0f} MB"
    )

    if args.onnx:
        onnx_figures(args.data, work, one, subs, texts_one, floor_one)


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)
    main()
