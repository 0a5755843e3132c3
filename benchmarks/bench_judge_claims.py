"""The usefulness judge as the claims generator's final choice, on texts it never saw.

    python benchmarks/bench_judge_claims.py [--seed 0]

Two folds over the validation-dev interventions: a judge is trained (with the shipped
recipe: ``train cqs --data … --outputs …``) on one half plus test-dev and the labelled
system outputs, and the claims generator chooses three questions for every text of the
other half with its own scores (``--selector first``) and with the judge
(``--selector scorer:DIR``). Both are scored with STS (MiniLM, 0.6) against the
texts' references. STS rewards wording close to the references, so this is a proxy:
it can say whether the judge moves the choice towards what annotators wrote, not
whether people would find the questions more useful.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "cqs"


def _split(seed: int) -> tuple[list[str], list[str]]:
    keys = sorted(json.loads((DATA / "validation-dev.json").read_text()))
    order = np.random.default_rng(seed).permutation(len(keys))
    half = len(keys) // 2
    return [keys[i] for i in order[:half]], [keys[i] for i in order[half:]]


def _subset(keys: list[str], path: Path) -> None:
    data = json.loads((DATA / "validation-dev.json").read_text())
    path.write_text(json.dumps({k: data[k] for k in keys}))


def _entry(key: str, questions: list[str]) -> dict:
    return {"intervention_id": key, "cqs": [{"id": i, "cq": q} for i, q in enumerate(questions)]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.environ.setdefault("MAIEUTIC_HOME", tempfile.mkdtemp())
    import maieutic
    from maieutic.embed.encoder import Encoder
    from maieutic.scorers.training_run import train_from_file
    from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator
    from maieutic.tasks.cqs.data import load_cq_dataset

    folds = _split(args.seed)
    rates: dict[str, list[float]] = {"own choice": [], "judge's choice": []}
    with tempfile.TemporaryDirectory() as tmp:
        for f, (train_keys, test_keys) in enumerate([folds, folds[::-1]]):
            train_file, test_file = Path(tmp) / f"train{f}.json", Path(tmp) / f"test{f}.json"
            _subset(train_keys, train_file)
            _subset(test_keys, test_file)
            start = time.perf_counter()
            trained = train_from_file(
                "cqs", [train_file, DATA / "test-dev.json"], Encoder(),
                outputs=str(DATA / "extended_test-dev.json"),
            )  # fmt: skip
            print(f"fold {f}: judge trained in {time.perf_counter() - start:.0f} s")
            dataset = load_cq_dataset(test_file)
            generators = {"own choice": ClaimsCQGenerator(),
                          "judge's choice": ClaimsCQGenerator(judge=trained.scorer)}  # fmt: skip
            for name, generator in generators.items():
                submission = {
                    key: _entry(key, generator.questions_for(item.intervention).questions)
                    for key, item in dataset.interventions.items()
                }
                path = Path(tmp) / f"{name[:3]}{f}.json"
                path.write_text(json.dumps(submission))
                run = maieutic.evaluate("cqs", dataset, submissions=[str(path)], evaluator="sts")
                summary = run.results[0].summary
                rates[name].append(summary["useful_rate"])
                print(f"  {name}: STS Useful rate {summary['useful_rate']:.3f}, "
                      f"NAE {summary['nae_rate']:.3f} on {len(test_keys)} texts")  # fmt: skip
    for name, values in rates.items():
        print(f"{name}: mean STS Useful rate over the two halves {np.mean(values):.3f}")


if __name__ == "__main__":
    main()
