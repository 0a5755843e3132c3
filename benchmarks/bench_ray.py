"""Generation on the Ray engine against a fake OpenAI-compatible server with a fixed
latency on loopback: throughput as a share of the ideal for the configured concurrency,
and peak memory at two corpus sizes.

The ideal for ``A`` actors each keeping ``C`` calls in flight, one call per text and a
latency of ``L`` seconds is ``A·C/L`` texts per second. Each configuration runs in a
fresh interpreter (its own peak RSS, its own Ray instance on this machine's cores, its
own empty cache); Ray's start is timed apart from the generation.

    python benchmarks/bench_ray.py [--rows 2000 20000] [--latency 0.2]
        [--config 2x8 2x16 2x32] [--local]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

_CHILD = r"""
import json, os, resource, sys, threading, time
import psutil
args = json.loads(sys.argv[1])
import maieutic
from maieutic.engines import RayOptions
peak_workers = 0
def sample():
    global peak_workers
    while True:
        total = 0
        for p in psutil.process_iter(["cmdline", "memory_info"]):
            cmd = " ".join(p.info["cmdline"] or [])
            if "ray::" in cmd or "default_worker.py" in cmd:
                total += p.info["memory_info"].rss if p.info["memory_info"] else 0
        peak_workers = max(peak_workers, total)
        time.sleep(0.5)
ray_start = 0.0
if args["engine"] == "ray":
    from maieutic.engines.ray_session import start_ray
    t = time.perf_counter(); start_ray(num_cpus=os.cpu_count()); ray_start = time.perf_counter() - t
threading.Thread(target=sample, daemon=True).start()
t = time.perf_counter()
g = maieutic.generate("cqs", args["data"], generator="llm", out=args["out"], llm="fake",
                      base_url=args["url"], concurrency=args["concurrency"], engine=args["engine"],
                      ray=RayOptions(actors=args["actors"], shard_rows=args["shard"]))
wall = time.perf_counter() - t
print(json.dumps({"wall": wall, "ray_start": ray_start, "failed": len(g.failed),
                  "calls": g.stats.requests,
                  "driver_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "driver_cpu": resource.getrusage(resource.RUSAGE_SELF).ru_utime
                  + resource.getrusage(resource.RUSAGE_SELF).ru_stime,
                  "workers_mb": peak_workers / 2**20}))
"""


def corpus(path: Path, rows: int) -> Path:
    """``rows`` synthetic interventions in the CQs layout."""
    data = {
        f"S_{i:06d}": {
            "intervention_id": f"S_{i:06d}",
            "intervention": f'SPEAKER: "Plan {i} must pass because costs rose {i % 97} percent '
            f'in district {i % 13}, so the council should act now."',
            "cqs": [],
        }
        for i in range(rows)
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def run(work: Path, data: Path, url: str, engine: str, actors: int, concurrency: int) -> dict:
    """One generation in a fresh interpreter with its own home; its figures."""
    out = work / f"out-{engine}-{actors}x{concurrency}-{data.stem}.json"
    args = {"data": str(data), "out": str(out), "url": url, "engine": engine,
            "actors": actors, "concurrency": concurrency,
            "shard": 512}  # fmt: skip
    home = tempfile.mkdtemp(prefix="home-", dir=work)
    env = dict(os.environ, MAIEUTIC_HOME=home)
    done = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(args)], env=env,
                          capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        sys.exit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--config", nargs="+", default=["2x8", "2x16", "2x32"],
                        help="ACTORSxCONCURRENCY")  # fmt: skip
    parser.add_argument("--local", action="store_true", help="also the in-process engine")
    args = parser.parse_args()
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.fake_server", "--delay", str(args.latency)],
        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[1],
    )  # fmt: skip
    url = server.stdout.readline().strip()
    threading.Thread(target=server.stdout.read, daemon=True).start()
    print(f"fake server {url}, {args.latency * 1000:.0f} ms per reply; {os.cpu_count()} cores")
    header = (
        "engine  A×C    rows    ideal/s  rows/s  share  wall s  ray start s  driver MB  workers MB"
    )
    print(header)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            for rows in args.rows:
                data = corpus(work / f"corpus-{rows}.json", rows)
                configs = [("ray", *map(int, c.split("x"))) for c in args.config]
                if args.local:
                    configs += [("local", 1, int(c.split("x")[1])) for c in args.config[-1:]]
                for engine, actors, concurrency in configs:
                    r = run(work, data, url, engine, actors, concurrency)
                    ideal = actors * concurrency / args.latency
                    rate = r["calls"] / r["wall"]
                    cells = [
                        f"{engine:6}", f"{actors}×{concurrency:<4}", f"{rows:>5}",
                        f"{ideal:7.0f}", f"{rate:6.1f}", f"{rate / ideal:5.2f}",
                        f"{r['wall']:6.1f}", f"{r['ray_start']:11.1f}", f"{r['driver_mb']:9.0f}",
                        f"{r['workers_mb']:10.0f}", f"{1000 * r['driver_cpu'] / rows:17.1f}",
                    ]  # fmt: skip
                    failed = f"  ({r['failed']} failed)" if r["failed"] else ""
                    print("  ".join(cells) + failed, flush=True)
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
