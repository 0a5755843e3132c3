"""CompQA: a judge's agreement with people on the human-scored answers, end to end
through the command line — the answers people scored (texts from the released judged
files, which keep their line breaks) written back into the released layout, scored
with ``maieutic evaluate compqa`` (the embedded SmolLM2 by default), then compared
with ``maieutic meta-eval compqa``. Prints seconds per answer and the agreement table.

    python benchmarks/compqa_judge_agreement.py [--evaluator llm|rules+llm|rules]
        [--limit N] [--strategy zero-shot|few-shot] [-- extra evaluate options]

``--limit`` scores a seeded sample of N of the 367 answers (the whole set takes hours
on two CPU cores with SmolLM2). Few-shot examples come from the first annotator's
file; the evaluated answers are left out of it automatically.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from maieutic.cli.main import run
from maieutic.tasks.compqa.judge_agreement import humans_from_table, match
from maieutic.tasks.compqa.scored_files import answer_files, read_scored

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "compqa"


def human_scored_answers(limit: int | None, seed: int) -> dict[str, list[dict]]:
    """The answers people scored, grouped into released-layout files by generator and
    scenario (``gpt4_scenario_3.json``, ``human.json``…)."""
    humans, _ = humans_from_table(DATA / "human_evaluation_367.tsv")
    judged = [a for f in answer_files([str(DATA / "judged" / "gpt-4")]) for a in read_scored(f)]
    matched = match(humans, judged).matched
    if limit is not None:
        matched = random.Random(seed).sample(matched, min(limit, len(matched)))
    files: dict[str, list[dict]] = {}
    for _, answer in matched:
        same = answer.generator == answer.scenario
        name = answer.generator if same else f"{answer.generator}_scenario_{answer.scenario}"
        files.setdefault(f"{name}.json", []).append(
            {
                "object1": answer.object1,
                "object2": answer.object2,
                "aspect": answer.aspect,
                "comparison": answer.comparison,
            }
        )
    return files


def main() -> None:
    """Score, compare, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evaluator", default="llm")
    parser.add_argument("--strategy", default="zero-shot")
    parser.add_argument("--limit", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", help="Folder to keep the results and agreement files in.")
    args, extra = parser.parse_known_args()
    keep = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="compqa-agree-"))
    answers = keep / "answers"
    answers.mkdir(parents=True, exist_ok=True)
    files = human_scored_answers(args.limit, args.seed)
    for name, rows in files.items():
        (answers / name).write_text(json.dumps(rows, ensure_ascii=False, indent=1))
    n = sum(len(rows) for rows in files.values())
    results = keep / f"{args.evaluator}-{args.strategy}.json"
    evaluate = ["evaluate", "compqa", str(answers), "--evaluator", args.evaluator]
    if args.evaluator != "rules":
        evaluate += ["--strategy", args.strategy]
        if args.strategy == "few-shot":
            evaluate += ["--shots-from", str(DATA / "dataset_hum1_evaluation.tsv")]
    start = time.perf_counter()
    code = run([*evaluate, *extra, "--out", str(results)])
    seconds = time.perf_counter() - start
    print(f"scored {n} answers in {seconds:.0f} s ({seconds / n:.2f} s per answer), exit {code}")
    agree = ["meta-eval", "compqa", "--judged", str(results), "--humans"]
    agree += [str(DATA / "human_evaluation_367.tsv"), "--per-criterion"]
    run([*agree, "--out", str(keep / "agreement.json")])
    print(f"files in {keep}")


if __name__ == "__main__":
    main()
