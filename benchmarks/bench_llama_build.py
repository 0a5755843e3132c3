"""What building the llama-cpp-python wheel costs, full and lean.

Builds llama-cpp-python from source twice, in throwaway folders: with the portable
flags alone (what the test script built before), and with ``build_cmake_args()`` (no
multimodal library, no llama.cpp "common" library). Prints, for each, the compile
steps, CPU seconds (user + system of every child: the measure that does not depend on
what else the machine is doing) and wall seconds, and checks that the lean wheel holds
the libraries the bindings load. Needs the package registry (the source archive) and
a compiler; takes several minutes.

    python benchmarks/bench_llama_build.py [--only lean|full]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from maieutic.llm.probe import PORTABLE_CMAKE_ARGS, build_cmake_args
from maieutic.llm.setup import LLAMACPP_VERSION

VARIANTS = {"full": PORTABLE_CMAKE_ARGS, "lean": build_cmake_args()}
NEEDED = ("libllama.so", "libggml.so", "libggml-base.so", "libggml-cpu.so")


def build(name: str, cmake_args: str, work: Path) -> dict:
    out, build_dir = work / f"{name}-wheel", work / f"{name}-build"
    command = [
        sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-cache-dir",
        "--no-binary", "llama-cpp-python", "-w", str(out),
        f"--config-settings=build-dir={build_dir}", f"llama-cpp-python=={LLAMACPP_VERSION}",
    ]  # fmt: skip
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env={**os.environ, "CMAKE_ARGS": cmake_args}, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    log = (build_dir / ".ninja_log").read_text().splitlines()[1:]
    objects = sum(line.split("\t")[3].endswith(".o") for line in log)
    wheel = next(out.glob("*.whl"))
    names = {Path(n).name for n in zipfile.ZipFile(wheel).namelist()}
    missing = [lib for lib in NEEDED if lib not in names]
    return {"objects": objects, "cpu_s": cpu, "wall_s": wall, "missing": missing}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(VARIANTS))
    args = parser.parse_args()
    chosen = [args.only] if args.only else list(VARIANTS)
    with tempfile.TemporaryDirectory() as work:
        for name in chosen:
            r = build(name, VARIANTS[name], Path(work))
            print(
                f"{name}: {r['objects']} objects compiled, {r['cpu_s']:.0f} CPU-s, "
                f"{r['wall_s']:.0f} s wall on {os.cpu_count()} cores"
                + (f"; MISSING {', '.join(r['missing'])}" if r["missing"] else "")
            )


if __name__ == "__main__":
    main()
