"""The CQs validation split through inspect_ai against maieutic's own route, on the
same machine and the same model: wall time, the score each gives, and whether they kept
the same questions.

    python benchmarks/bench_integrations.py [--data ../shared/data/cqs/validation-dev.json]
        [--limit N] [--out FILE.json]

Starts llama.cpp's OpenAI-compatible server with the embedded SmolLM2-135M on a free
loopback port (``maieutic.llm.server.LocalServer``; needs ``maieutic setup-llm``), then
times, each from a cold call cache:

1. ``inspect eval maieutic/cqs --model openai-api/local/<model>`` (in process, through
   ``inspect_ai.eval``), then ``maieutic import inspect-log`` of its log;
2. ``maieutic generate cqs --generator llm --base-url … --llm <model>`` then ``maieutic
   evaluate cqs`` on what it wrote.

Both send the same prompt with the same sampling (temperature, top-p, tokens and seed
0): a server that samples deterministically for a seed gives the same replies, so the
same questions and the same score. Where they differ, the script counts the
interventions whose questions differ and prints one.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent.parent / "shared" / "data" / "cqs" / "validation-dev.json"


def _questions(path: Path) -> dict[str, list[str] | None]:
    found = json.loads(path.read_text(encoding="utf-8"))
    return {
        key: None if entry["cqs"] == "Missing CQs" else [q["cq"] for q in entry["cqs"]]
        for key, entry in found.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--limit", type=int, default=None, help="first N interventions")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="bench-integrations-"))
    os.environ["MAIEUTIC_HOME"] = str(work / "home")
    os.environ["HOME"] = str(work)
    from maieutic.cli.main import run
    from maieutic.llm.server import SERVED_MODEL_NAME, LocalServer
    from maieutic.tasks.cqs.data import load_cq_dataset

    data = args.data
    if args.limit:
        dataset = load_cq_dataset(data)
        kept = dict(list(json.loads(data.read_text(encoding="utf-8")).items())[: args.limit])
        data = work / "data.json"
        data.write_text(json.dumps(kept), encoding="utf-8")
        assert len(load_cq_dataset(data).interventions) == min(
            args.limit, len(dataset.interventions)
        )
    server = LocalServer().start()
    try:
        os.environ["LOCAL_BASE_URL"] = server.base_url
        os.environ["LOCAL_API_KEY"] = "none"
        from inspect_ai import eval as inspect_eval

        from maieutic.integrations.inspect_tasks import cqs

        start = time.perf_counter()
        [log] = inspect_eval(
            cqs(data=str(data)),
            model=f"openai-api/local/{SERVED_MODEL_NAME}",
            log_dir=str(work / "logs"),
            display="none",
        )
        inspect_s = time.perf_counter() - start
        assert log.status == "success", log.error
        imported = work / "inspect.json"
        assert run(["import", "inspect-log", log.location, "--out", str(work / "r1.json"),
                    "--out-submission", str(imported)]) == 0  # fmt: skip
        inspect_score = log.results.scores[0].metrics["overall"].value

        os.environ["MAIEUTIC_HOME"] = str(work / "home2")  # a cold call cache again
        start = time.perf_counter()
        generated = work / "maieutic.json"
        # exit 1 when some interventions got no usable question (written as Missing CQs)
        assert run(["-q", "generate", "cqs", "--data", str(data), "--generator", "llm",
                    "--base-url", server.base_url, "--llm", SERVED_MODEL_NAME,
                    "--out", str(generated)]) in (0, 1)  # fmt: skip
        results = work / "r2.json"
        assert run(["-q", "evaluate", "cqs", "--data", str(data), str(generated),
                    "--out", str(results)]) == 0  # fmt: skip
        maieutic_s = time.perf_counter() - start
        maieutic_score = json.loads(results.read_text())["results"][0]["score"]
    finally:
        server.stop()

    mine, theirs = _questions(generated), _questions(imported)
    differ = [k for k in mine if mine[k] != theirs.get(k)]
    figures = {
        "interventions": len(mine),
        "inspect_seconds": round(inspect_s, 1),
        "maieutic_seconds": round(maieutic_s, 1),
        "inspect_overall": inspect_score,
        "maieutic_overall": maieutic_score,
        "interventions_with_other_questions": len(differ),
    }
    for name, value in figures.items():
        print(f"{name}: {value}")
    if differ:
        key = differ[0]
        print(f"e.g. {key}: inspect {theirs.get(key)} / maieutic {mine[key]}")
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
