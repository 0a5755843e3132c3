"""The reference-free usefulness judge against people, on the questions people labelled.

    python benchmarks/bench_judge.py [--seed 0] [--grid]

Pools the CQs development references (validation-dev, test-dev) with the shared-task
systems' questions people labelled (extended_test-dev, 16 interventions) and runs the
5-fold cross-validation grouped by intervention that ``maieutic train cqs --outputs``
runs (the 16 interventions with labelled outputs dealt across the folds). Every model
learns from each fold's training side only; the figures are on its test side:

- on the systems' questions: κ Useful-vs-rest (each fold's threshold set on its
  training side), ROC AUC, and the Useful rate of the 3 questions each intervention's
  scores rank first (the reranker); 95% intervals over interventions;
- as the NAE fallback: STS (MiniLM, 0.6) against the intervention's references first,
  the judge only where no reference matches, against STS alone (κ Useful-vs-rest);
- on the references: κ and AUC.

Models on the same folds: ``today`` (the recipe before this judge: references only,
three classes, C 0.3, threshold at the references' Useful rate on in-sample scores)
and ``judge`` (the shipped recipe, ``JUDGE_RECIPE``: references and outputs, outputs
counted twice, Useful against the rest, C 0.1, threshold at the outputs' Useful rate
on inner out-of-fold scores). ``--grid`` adds the variants the recipe was chosen from.
Then the cost: training the shipped judge from scratch (no embedding cache), and
scoring speed after load.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from maieutic.embed.encoder import Encoder
from maieutic.embed.store import EmbeddingStore
from maieutic.scorers.features import dense_version, pair_features, with_ngrams
from maieutic.scorers.figures import binary_figures, top_k_rate
from maieutic.scorers.grouped_cv import grouped_folds
from maieutic.scorers.train import (
    INNER_FOLDS,
    NGRAM_C,
    base_rate_threshold,
    cross_validate,
    fit_with_ngrams,
    system_weights,
)
from maieutic.tasks.cqs.data import CQDataset, load_cq_dataset
from maieutic.tasks.cqs.evaluators import sts
from maieutic.tasks.cqs.labelled_outputs import load_labelled_outputs
from maieutic.tasks.cqs.outputs_agreement import judge_outputs
from maieutic.tasks.cqs.scorer_examples import FEATURES, JUDGE_RECIPE, cqs_examples
from maieutic.tasks.cqs.scoring import NAE

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "cqs"
USEFUL = "Useful"


def load():
    """The pooled dataset, test-dev, the labelled outputs, and the examples of all."""
    validation = load_cq_dataset(DATA / "validation-dev.json")
    test = load_cq_dataset(DATA / "test-dev.json")
    pooled = CQDataset(
        interventions={**validation.interventions, **test.interventions}, source="pooled"
    )
    outputs = load_labelled_outputs(DATA / "extended_test-dev.json", test)
    return pooled, test, outputs, cqs_examples(pooled, outputs)


def _fit_score(dense, examples, train, test, weights, c, binary):
    """Fit on ``train`` (weighted), P(Useful) of ``test``."""
    labels = [
        label if not binary or label == USEFUL else "other"
        for label in (examples.labels[i] for i in train)
    ]
    questions = examples.questions
    model, vocabulary = fit_with_ngrams(
        dense[train], [questions[i] for i in train], labels=labels, c=c, seed=0, weights=weights
    )
    features = with_ngrams(dense[test], [questions[i] for i in test], vocabulary)
    return model.probabilities(features)[:, model.classes.index(USEFUL)]


def today_fold(dense, examples, train, test):
    """The recipe before the judge: references only, three classes, in-sample rate."""
    refs = train[~examples.from_systems[train]]
    scores = _fit_score(dense, examples, refs, np.concatenate([refs, test]), None, NGRAM_C, False)
    threshold = base_rate_threshold(scores[: len(refs)], target=examples.target[refs])
    return scores[len(refs) :], threshold


def variant_fold(dense, examples, train, test, weight, c, binary):
    """A grid variant: outputs weighted, threshold at the outputs' rate (inner CV)."""
    weights = np.where(examples.from_systems[train], weight, 1.0)
    inner = np.zeros(len(train))
    groups = [examples.groups[i] for i in train]
    for a, b in grouped_folds(groups, INNER_FOLDS, seed=0):
        inner[b] = _fit_score(dense, examples, train[a], train[b], weights[a], c, binary)
    outputs = examples.from_systems[train]
    threshold = base_rate_threshold(inner[outputs], target=examples.target[train][outputs])
    return _fit_score(dense, examples, train, test, weights, c, binary), threshold


def show(name: str, figure: dict) -> str:
    if figure.get("value") is None:
        return f"{name} —"
    return f"{name} {figure['value']:.3f} [{figure['low']:.3f}, {figure['high']:.3f}]"


def report(name, scores, decided, examples, sts_labels, seed, seconds) -> None:
    """Print one model's figures."""
    outputs = np.flatnonzero(examples.from_systems)
    refs = np.flatnonzero(~examples.from_systems)
    target, ordinal = examples.target, np.array(examples.ordinal)
    groups = np.array(examples.groups)
    o = binary_figures(target[outputs], scores=scores[outputs], decided=decided[outputs],
                       ordinal=ordinal[outputs], groups=list(groups[outputs]),
                       seed=seed)  # fmt: skip
    r = binary_figures(target[refs], scores=scores[refs], decided=decided[refs],
                       ordinal=ordinal[refs], groups=list(groups[refs]), seed=seed)  # fmt: skip
    top3 = top_k_rate(
        target[outputs], scores=scores[outputs], groups=list(groups[outputs]), k=3, seed=seed
    )
    print(f"\n{name}  ({seconds:.0f} s for 5 folds)")
    print(f"  systems' questions: {show('κ', o['kappa'])} | {show('AUC', o['auc'])} | "
          f"{show('top-3 Useful', top3)} | accepted {decided[outputs].mean():.3f} "
          f"(people: {target[outputs].mean():.3f})")  # fmt: skip
    useful = target[outputs]
    alone = sts_labels == USEFUL
    fallback = np.where(sts_labels == NAE, decided[outputs], alone)
    none = np.zeros(len(useful))
    k_alone = binary_figures(
        useful, scores=none, decided=alone, ordinal=none, groups=list(groups[outputs]), seed=seed
    )["kappa"]
    k_fallback = binary_figures(
        useful, scores=none, decided=fallback, ordinal=none, groups=list(groups[outputs]), seed=seed
    )
    nae = sts_labels == NAE
    print(f"  NAE fallback: {show('STS alone κ', k_alone)} | "
          f"{show('STS, then the judge κ', k_fallback['kappa'])} | the judge calls "
          f"{decided[outputs][nae].mean():.3f} of the {nae.sum()} NAE questions Useful "
          f"(people: {useful[nae].mean():.3f})")  # fmt: skip
    print(f"  references: {show('κ', r['kappa'])} | {show('AUC', r['auc'])}")


def cost(examples) -> None:
    """Training the shipped judge with no embedding cache, and scoring speed."""
    from maieutic.scorers.training_run import train_from_file
    from maieutic.tasks.cqs.usefulness import NAME, load_judge

    start = time.perf_counter()
    train_from_file("cqs", [DATA / "validation-dev.json", DATA / "test-dev.json"], Encoder(),
                    cache=False, outputs=str(DATA / "extended_test-dev.json"))  # fmt: skip
    print(f"\ntraining the shipped judge, no embedding cache: {time.perf_counter() - start:.0f} s")
    judge, encoder = load_judge(NAME), Encoder()
    encoder.encode(["warm up"])  # the model loaded: speed after load
    rows = np.flatnonzero(examples.from_systems)
    contexts = [examples.contexts[i] for i in rows]
    questions = [examples.questions[i] for i in rows]
    start = time.perf_counter()
    judge.score(encoder, contexts, questions, schemes=None, store=None)
    seconds = time.perf_counter() - start
    print(f"scoring {len(rows)} questions (16 texts), no cache, model loaded: {seconds:.2f} s, "
          f"{len(rows) / seconds:.0f} questions/s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--grid", action="store_true", help="also the variants tried")
    parser.add_argument("--no-cost", action="store_true", help="skip the timing runs")
    args = parser.parse_args()
    _pooled, test, outputs, examples = load()
    from_systems = examples.from_systems
    print(f"{len(examples)} pairs: {int((~from_systems).sum())} references, "
          f"{int(from_systems.sum())} labelled system questions, "
          f"{len(set(examples.groups))} interventions")  # fmt: skip
    dense = pair_features(
        Encoder(), examples.contexts, questions=examples.questions, schemes=examples.schemes,
        store=EmbeddingStore(), version=dense_version(FEATURES),
    )  # fmt: skip
    items = judge_outputs(test, outputs, sts())
    sts_labels = np.array([item.predicted for item in items])
    strata = {g: "systems" for g, s in zip(examples.groups, from_systems, strict=True) if s}
    folds = grouped_folds(examples.groups, 5, seed=args.seed, strata=strata)

    def run(name, fold_fn) -> None:
        scores, decided = np.zeros(len(examples)), np.zeros(len(examples), dtype=bool)
        start = time.perf_counter()
        for train, test_rows in folds:
            s, t = fold_fn(train, test_rows)
            scores[test_rows], decided[test_rows] = s, s >= t
        report(name, scores, decided, examples, sts_labels, args.seed,
               time.perf_counter() - start)  # fmt: skip

    run("today (references only)", lambda a, b: today_fold(dense, examples, a, b))
    binary = examples.binary()
    start = time.perf_counter()
    recipe = JUDGE_RECIPE
    cv = cross_validate(binary, dense, recipe["c"], seed=args.seed, ngrams=True,
                        weights=system_weights(binary, recipe["system_weight"]))  # fmt: skip
    report("judge (the shipped recipe, as train cqs runs it)", cv["oof_scores"],
           cv["oof_decisions"], examples, sts_labels, args.seed,
           time.perf_counter() - start)  # fmt: skip
    if args.grid:
        for weight in (1.0, 2.0, 4.0):
            for c in (0.1, 0.3):
                for binary_model in (False, True):
                    kind = "binary" if binary_model else "three classes"
                    run(f"outputs ×{weight:g}, C {c:g}, {kind}",
                        lambda a, b, w=weight, c=c, k=binary_model:
                        variant_fold(dense, examples, a, b, w, c, k))  # fmt: skip
    if not args.no_cost:
        cost(examples)


if __name__ == "__main__":
    main()
