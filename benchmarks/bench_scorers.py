"""Learned scorers on the shared dev data, by grouped cross-validation (no text on both
sides of a fold): the figures issue 11 asks for.

    python benchmarks/bench_scorers.py [--c 0.001] [--skip-generation]

1. CQs usefulness: training time (cold and with cached embeddings), κ (Useful vs
   rest), three-class κ, AUC, Spearman; and the Useful rate of 3 references chosen per
   intervention by out-of-fold score against the rate of all references.
2. Template generation + selection by a scorer trained on the other folds' interventions,
   scored with STS 0.6 on the held-out interventions (against the plain template
   generator on the same interventions), with one filling per template and with every
   slot filled in every plausible way (``--fill every``); the selecting scorer learned
   from the references (``train scorer``) or from the templates' own candidates
   labelled by the reference each matches (``train scorer --examples templates``).
3. AURA answerability on QGEval: per-question Spearman of the out-of-fold probability
   with the human rating, and system-ranking Spearman.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

from maieutic.core import get_task
from maieutic.embed.encoder import Encoder
from maieutic.embed.store import EmbeddingStore, embed_texts
from maieutic.registry import create
from maieutic.scorers.features import WITH_NGRAMS, pair_features
from maieutic.scorers.grouped_cv import grouped_folds
from maieutic.scorers.model import LearnedScorer
from maieutic.scorers.train import cross_validate, default_c, fit_model
from maieutic.scorers.training_run import read_examples, train_from_file
from maieutic.tasks.aura.scorer_examples import FEATURES as ANSWERABILITY_FEATURES
from maieutic.tasks.cqs.data import load_cq_dataset
from maieutic.tasks.cqs.schemes import SchemeLibrary
from maieutic.tasks.cqs.scorer_examples import FEATURES as USEFULNESS_FEATURES
from maieutic.tasks.cqs.scorer_examples import cqs_examples
from maieutic.tasks.cqs.scorer_templates import FEATURES, template_examples
from maieutic.tasks.cqs.selection import ranked_diverse_k
from maieutic.tasks.cqs.template_generator import TemplateGenerator

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"
CQS = DATA / "cqs" / "validation-dev.json"
QGEVAL = DATA / "qgeval" / "instances-dev.json"


def _show(name: str, figure: dict | None) -> str:
    if not figure or figure.get("value") is None:
        return f"{name} —"
    return f"{name} {figure['value']:.3f} [{figure['low']:.3f}, {figure['high']:.3f}]"


def usefulness(encoder: Encoder, c: float | None) -> None:
    """Section 1."""
    for label in ("cold", "cached"):
        start = time.perf_counter()
        trained = train_from_file("cqs", CQS, encoder, c=c, cache=label == "cached")
        print(f"cqs scorer trained ({label} embeddings): {time.perf_counter() - start:.1f} s")
    r = trained.report
    print(
        "  "
        + "; ".join(
            [
                _show("κ Useful-vs-rest", r["kappa"]),
                _show("κ 3-class", r.get("kappa_3class")),
                _show("AUC", r["auc"]),
                _show("Spearman", r["spearman"]),
            ]
        )
    )
    examples = read_examples("cqs", CQS)
    features = pair_features(
        encoder, examples.contexts, questions=examples.questions, schemes=examples.schemes
    )
    version = USEFULNESS_FEATURES
    c = default_c(version) if c is None else c
    oof = cross_validate(examples, features, c, seed=0, ngrams=version in WITH_NGRAMS)["oof_scores"]
    target, groups = examples.target, np.array(examples.groups)
    chosen = []
    for g in sorted(set(examples.groups)):
        idx = np.flatnonzero(groups == g)
        chosen += list(idx[np.argsort(-oof[idx], kind="stable")[:3]])
    print(
        f"  Useful rate: all references {target.mean():.3f}; 3 chosen per intervention by "
        f"out-of-fold score {target[chosen].mean():.3f}"
    )


def generation(encoder: Encoder, c: float | None) -> None:
    """Section 2: templates + selection on held-out interventions, STS 0.6."""
    dataset = load_cq_dataset(CQS)
    store = EmbeddingStore()
    libraries = {
        "built-in templates": SchemeLibrary.builtin(),
        "benchmark scheme file": SchemeLibrary.from_walton(
            DATA / "cqs" / "walton_schemes.jsonl", DATA / "cqs" / "schemes_mapping.csv"
        ),
    }
    # The judge of `train scorer` (the references) and the selectors of `train scorer
    # --examples templates` (candidates of the built-in templates, or of both libraries
    # with --schemes, labelled by the reference each matches; labels depend on the
    # intervention alone, so they are made once and each fold learns from its training
    # interventions' rows).
    sources = {
        "usefulness scorer": cqs_examples(dataset),
        "template-trained selector": template_examples(
            dataset, [libraries["built-in templates"]], encoder, store=store
        ),
        "template-trained selector, both libraries": template_examples(
            dataset, list(libraries.values()), encoder, store=store
        ),
    }
    dense = {
        name: pair_features(
            encoder, ex.contexts, questions=ex.questions, schemes=ex.schemes, store=store
        )
        for name, ex in sources.items()
    }
    versions = {name: FEATURES for name in sources}
    versions["usefulness scorer"] = USEFULNESS_FEATURES
    ids = list(dataset.interventions)
    for name, library in libraries.items():
        templates = TemplateGenerator(library)
        every = TemplateGenerator(library, every_fill=True)
        rows = {key: {} for key in ("plain", "first", "plain_every", *sources)}
        for train_idx, test_idx in grouped_folds(ids, 5, seed=0):
            train_ids = {ids[i] for i in train_idx}
            scorers = {}
            for source, ex in sources.items():
                on_train = [i for i, g in enumerate(ex.groups) if g in train_ids]
                fold = ex.subset(on_train)
                scorers[source] = _fit(fold, dense[source][on_train], versions[source], c)
            for i in test_idx:
                item = dataset.interventions[ids[i]]
                rows["plain"][item.intervention_id] = templates.candidates(item)[:3]
                rows["plain_every"][item.intervention_id] = every.candidates(item)[:3]
                chosen = _select(encoder, store, templates, scorers["usefulness scorer"], item)
                rows["first"][item.intervention_id] = chosen
                for source, scorer in scorers.items():
                    chosen = _select(encoder, store, every, scorer, item)
                    rows[source][item.intervention_id] = chosen
        for label, key in (
            ("plain", "plain"),
            ("one filling per template, selected by the usefulness scorer", "first"),
            ("every slot filling, first 3", "plain_every"),
            *((f"every slot filling, selected by the {s}", s) for s in sources),
        ):
            print(f"  templates ({name}), {label}: STS 0.6 = {_sts(dataset, rows[key]):.3f}")


def _fit(examples, dense, version: str, c: float | None) -> LearnedScorer:
    """A scorer fitted on ``examples`` as ``train scorer`` fits its final model."""
    c = default_c(version) if c is None else c
    model, ngrams = fit_model(examples, dense, version, c=c, seed=0)
    manifest = {"positive": examples.positive, "features": {"version": version}}
    return LearnedScorer(model, manifest, ngrams)


def _select(encoder, store, generator, scorer: LearnedScorer, item) -> list[str]:
    """The 3 candidates ``scorer`` ranks highest, no two above cosine 0.85."""
    candidates = generator.candidates(item)
    scheme = item.schemes[0] if item.schemes else ""
    n = len(candidates)
    p = scorer.score(
        encoder, [item.intervention] * n, candidates, schemes=[scheme] * n, store=store
    )
    vectors = embed_texts(candidates, encoder, store)
    return ranked_diverse_k(candidates, p, vectors, k=3, max_similarity=0.85)


def _sts(dataset, chosen: dict[str, list[str]]) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "submission.json"
        payload = {
            iid: {
                "intervention_id": iid,
                "intervention": dataset.interventions[iid].intervention,
                "cqs": [{"id": n, "cq": q} for n, q in enumerate(questions)],
            }
            for iid, questions in chosen.items()
        }
        path.write_text(json.dumps(payload))
        submission = get_task("cqs").load_submission(path)
        [result] = create("evaluator", task="cqs", name="sts").evaluate(dataset, [submission])
    return float(result.score)


def answerability(encoder: Encoder, c: float | None) -> None:
    """Section 3."""
    examples = read_examples("aura", QGEVAL)
    version = ANSWERABILITY_FEATURES
    features = pair_features(
        encoder, examples.contexts, questions=examples.questions, version=version
    )
    cv = cross_validate(examples, features, default_c(version) if c is None else c, seed=0)
    oof = cv["oof_scores"]
    rho_q = spearmanr(oof, examples.ordinal).statistic
    systems = sorted(set(examples.systems))
    system = np.array(examples.systems)
    ordinal = np.array(examples.ordinal)
    mean_p = [oof[system == s].mean() for s in systems]
    mean_h = [ordinal[system == s].mean() for s in systems]
    rho_s = spearmanr(mean_p, mean_h).statistic
    print(
        f"aura answerability: per-question Spearman {rho_q:.3f}; system ranking Spearman "
        f"{rho_s:.3f} ({len(systems)} systems); {_show('AUC', cv['figures']['auc'])}"
    )


def main() -> None:
    """Print every figure."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--c", type=float, default=None, help="default: per feature set")
    parser.add_argument("--skip-generation", action="store_true")
    args = parser.parse_args()
    encoder = Encoder()
    usefulness(encoder, args.c)
    if not args.skip_generation:
        generation(encoder, args.c)
    answerability(encoder, args.c)


if __name__ == "__main__":
    main()
