"""SmolLM2 + scorer selection on interventions the scorer never saw.

    python benchmarks/bench_llm_selection.py [--limit 26] [--candidates 3]

A usefulness scorer is trained on four of the five grouped folds of the CQs dev data;
the embedded SmolLM2 (in-process, ``detailed`` strategy) generates ``--candidates``
samples for each held-out intervention (the first ``--limit`` of them); the pooled
candidates are reduced to three by the ``first`` selector and by the scorer, and both
submissions are scored with STS 0.6 on those interventions. Model calls are cached, so
a second run costs only the selection.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from bench_scorers import CQS, _sts
from maieutic.embed.encoder import Encoder
from maieutic.registry import create
from maieutic.scorers.grouped_cv import grouped_folds
from maieutic.scorers.training_run import train_from_file
from maieutic.tasks.cqs.data import load_cq_dataset
from maieutic.tasks.cqs.selection import first_k, make_selector


def main() -> None:
    """Train on folds 1–4, generate for fold 0, select two ways, score."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=int, default=26)
    parser.add_argument("--candidates", type=int, default=3)
    args = parser.parse_args()
    raw = json.loads(CQS.read_text())
    ids = list(raw)
    train_idx, test_idx = grouped_folds(ids, 5, seed=0)[0]
    held_out = [ids[i] for i in test_idx][: args.limit]
    with tempfile.TemporaryDirectory() as tmp:
        train_file = Path(tmp) / "train.json"
        train_file.write_text(json.dumps({ids[i]: raw[ids[i]] for i in train_idx}))
        scorer_dir = Path(tmp) / "scorer"
        train_from_file("cqs", train_file, Encoder()).scorer.save(scorer_dir)
        dataset = load_cq_dataset(CQS)
        dataset.interventions = {i: dataset.interventions[i] for i in held_out}
        generator = create(
            "generator", task="cqs", name="llm", candidates=args.candidates, temperature=0.7, seed=0
        )
        start = time.perf_counter()
        run = generator.generate(dataset)
        seconds = time.perf_counter() - start
        scorer_select = make_selector(f"scorer:{scorer_dir}")
        chosen = {"first": {}, "scorer": {}}
        for outcome in run.outcomes:
            item = dataset.interventions[outcome.intervention_id]
            pool = outcome.candidates
            chosen["first"][outcome.intervention_id] = first_k(item, pool, 3)
            chosen["scorer"][outcome.intervention_id] = scorer_select(item, pool, 3)
        sizes = [len(o.candidates) for o in run.outcomes]
        print(
            f"SmolLM2, {len(held_out)} held-out interventions, {args.candidates} samples each: "
            f"{sum(sizes) / len(sizes):.1f} distinct candidates per intervention, "
            f"generation {seconds:.0f} s ({run.stats.model_calls} calls, "
            f"{run.stats.cache_hits} cached)"
        )
        for name, submission in chosen.items():
            print(f"  selector {name}: STS 0.6 = {_sts(dataset, submission):.3f}")


if __name__ == "__main__":
    main()
