"""Train the claims generator's ranker on the CQs dev data and print its grouped
cross-validated figures.

    python benchmarks/train_claim_ranker.py [--data ../shared/data/cqs/validation-dev.json]
        [--also ../shared/data/cqs/test-dev.json]
        [--outputs ../shared/data/cqs/extended_test-dev.json]
        [--exclude benchmarks/rating/heldout_cqs.json] [--write]

People's labels teach which claims they challenge: the Useful references of every
``--data`` and ``--also`` file, and the questions systems wrote that people labelled
Useful (``--outputs``, the extended test file's system questions, for the interventions
of ``--also``). The interventions listed in ``--exclude`` (the 30 kept out for the blind
rating) are never read. ``--write`` saves the model as the package's
``claim_ranker.json``. Figures: mean ROC AUC within each text (which clause of this
text do people challenge), for the ranker and for two baselines (clause length alone;
chance 0.5), with a bootstrap interval over texts; 5-fold CV grouped by intervention.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from maieutic.embed.encoder import shared_encoder  # noqa: E402
from maieutic.language.claims import read_claims  # noqa: E402
from maieutic.tasks.cqs import claim_ranker as cr  # noqa: E402
from maieutic.tasks.cqs.data import load_cq_dataset  # noqa: E402

SEED = 0
CANDIDATES = (
    ("log_content",),
    ("log_content", "recurring"),
    ("log_content", "recurring", "subject_pronoun"),
    (
        "log_content",
        "recurring",
        "subject_pronoun",
        "subject_entity",
        "kind_statistic",
        "kind_causal",
        "premise",
        "concluded",
        "first_sentence",
        "last_sentence",
    ),
    cr.FEATURES,
)
"""Feature sets a model may use; which one (and how strongly regularised) is chosen by
an inner grouped cross-validation inside each outer training fold, so the outer
figure never sees the choice."""
CS = (0.03, 0.3, 3.0)


def fit(x: np.ndarray, y: np.ndarray, c: float) -> LogisticRegression:
    """Logistic regression without intercept on within-text centred, scaled features."""
    return LogisticRegression(C=c, fit_intercept=False, max_iter=2000).fit(x, y)


def masked(x: np.ndarray, names: tuple[str, ...]) -> np.ndarray:
    """``x`` with every feature not in ``names`` set to 0 (it then gets no weight)."""
    keep = np.asarray([n in names for n in cr.FEATURES], dtype=float)
    return x * keep


def choose(x: np.ndarray, y: np.ndarray, g: np.ndarray) -> tuple[tuple[str, ...], float]:
    """The feature set and C with the best inner grouped-CV within-text AUC."""
    best, best_auc = (CANDIDATES[0], CS[0]), -1.0
    for names in CANDIDATES:
        for c in CS:
            scores = np.zeros(len(y))
            for train, test in GroupKFold(4).split(x, y, g):
                model = fit(masked(x[train], names), y[train], c)
                scores[test] = masked(x[test], names) @ model.coef_[0]
            auc = cr.within_text_auc(y, scores=scores, groups=g)
            if auc > best_auc + 1e-9:
                best, best_auc = (names, c), auc
    return best


def bootstrap(values_by_text: dict[str, tuple], n: int = 1000) -> tuple[float, float]:
    rng = np.random.default_rng(SEED)
    keys = list(values_by_text)
    stats = []
    for _ in range(n):
        sample = rng.choice(len(keys), len(keys))
        y = np.concatenate([values_by_text[keys[i]][0] for i in sample])
        s = np.concatenate([values_by_text[keys[i]][1] for i in sample])
        g = np.concatenate(
            [[pos] * len(values_by_text[keys[i]][0]) for pos, i in enumerate(sample)]
        )
        stats.append(cr.within_text_auc(y, scores=s, groups=g))
    return float(np.nanpercentile(stats, 2.5)), float(np.nanpercentile(stats, 97.5))


def training_items(data: str, also: str, outputs: str, excluded: set[str]):
    """Every intervention to learn from, its questions being the references plus the
    system questions people labelled (as references: only the Useful ones teach), and
    the files read."""
    from dataclasses import replace

    from maieutic.tasks.cqs.data import ReferenceQuestion
    from maieutic.tasks.cqs.labelled_outputs import load_labelled_outputs

    items = {}
    sources = [data]
    for path in [data, *([also] if also else [])]:
        dataset = load_cq_dataset(path)
        items.update({k: v for k, v in dataset.interventions.items() if k not in excluded})
        if path == also and outputs:
            sources += [also, outputs]
            labelled = load_labelled_outputs(outputs, dataset)
            for key, found in labelled.by_intervention().items():
                if key in items:
                    extra = tuple(ReferenceQuestion(id=o.id, cq=o.cq, label=o.label) for o in found)
                    items[key] = replace(items[key], cqs=items[key].cqs + extra)
        elif path == also:
            sources.append(also)
    return items, sources


def bootstrap_difference(a: dict[str, tuple], b: dict[str, tuple], n: int = 1000):
    """95% interval of within-text AUC(a) - AUC(b), texts resampled in pairs."""
    rng = np.random.default_rng(SEED)
    keys = [k for k in a if k in b]
    stats = []
    for _ in range(n):
        sample = [keys[i] for i in rng.choice(len(keys), len(keys))]
        values = []
        for scores in (a, b):
            y = np.concatenate([scores[k][0] for k in sample])
            s = np.concatenate([scores[k][1] for k in sample])
            g = np.concatenate([[i] * len(scores[k][0]) for i, k in enumerate(sample)])
            values.append(cr.within_text_auc(y, scores=s, groups=g))
        stats.append(values[0] - values[1])
    return float(np.nanpercentile(stats, 2.5)), float(np.nanpercentile(stats, 97.5))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", default=str(ROOT.parent / "shared/data/cqs/validation-dev.json"))
    parser.add_argument("--also", default=str(ROOT.parent / "shared/data/cqs/test-dev.json"))
    parser.add_argument(
        "--outputs", default=str(ROOT.parent / "shared/data/cqs/extended_test-dev.json")
    )
    parser.add_argument("--exclude", default=str(ROOT / "benchmarks/rating/heldout_cqs.json"))
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    excluded = set(json.loads(Path(args.exclude).read_text())["heldout"]) if args.exclude else set()
    items, sources = training_items(args.data, args.also, args.outputs, excluded)
    start = time.perf_counter()
    readings = {k: read_claims(v.intervention) for k, v in items.items()}
    encoder = shared_encoder()
    xs, ys, groups = [], [], []
    for key, item in items.items():
        reading = readings[key]
        if len(reading.claims) < 2:
            continue
        xs.append(cr.claim_features(reading))
        ys.append(cr.clause_targets(reading, item.cqs, encoder))
        groups += [key] * len(reading.claims)
    x, y, g = np.vstack(xs), np.concatenate(ys), np.asarray(groups)
    xc = cr.centred(x, groups=g)
    scale = np.maximum(xc.std(axis=0), 1e-3)  # a constant feature stays 0
    xs_ = xc / scale
    scores = np.zeros(len(y))
    for train, test in GroupKFold(5).split(xs_, y, g):
        names, c = choose(xs_[train], y[train], g[train])
        model = fit(masked(xs_[train], names), y[train], c)
        scores[test] = masked(xs_[test], names) @ model.coef_[0]
    length = x[:, cr.FEATURES.index("n_content")]
    by_text = {k: (y[g == k], scores[g == k]) for k in np.unique(g)}
    by_text_len = {k: (y[g == k], length[g == k]) for k in np.unique(g)}
    auc = cr.within_text_auc(y, scores=scores, groups=g)
    auc_len = cr.within_text_auc(y, scores=length, groups=g)
    chosen, chosen_c = choose(xs_, y, g)
    model = fit(masked(xs_, chosen), y, chosen_c)
    priors = cr.framing_priors(list(items.values()))
    print(
        f"texts {len(by_text)} (excluded {len(excluded)}), claims {len(y)}, "
        f"challenged {y.mean():.2f}; {time.perf_counter() - start:.1f} s"
    )
    lo, hi = bootstrap(by_text)
    lo_len, hi_len = bootstrap(by_text_len)
    diff_lo, diff_hi = bootstrap_difference(by_text, by_text_len)
    print(
        f"within-text AUC, 5-fold CV grouped by text: ranker {auc:.3f} [{lo:.3f}, {hi:.3f}]; "
        f"clause length alone {auc_len:.3f} [{lo_len:.3f}, {hi_len:.3f}]; chance 0.500; "
        f"ranker - length {auc - auc_len:+.3f} [{diff_lo:+.3f}, {diff_hi:+.3f}] (paired "
        "bootstrap over texts)"
    )
    print(f"chosen on all the data: features {', '.join(chosen)}; C {chosen_c:g}")
    weights = zip(cr.FEATURES, model.coef_[0], strict=True)
    print("coefficients:", ", ".join(f"{n} {w:+.2f}" for n, w in weights))
    print("framing priors:", ", ".join(f"{k} {v:.2f}" for k, v in sorted(priors.items())))
    if args.write:
        data_hash = hashlib.sha256(
            b"".join(hashlib.sha256(Path(p).read_bytes()).digest() for p in sources)
        ).hexdigest()
        body = {
            "format": cr.FORMAT,
            "note": "Which claims people challenge and which framings they find useful, "
            "learned from the Useful references of the CQs dev files and the system "
            "questions people labelled Useful (benchmarks/train_claim_ranker.py); the "
            "held-out interventions were never read.",
            "training_files": [Path(p).name for p in sources],
            "features": list(cr.FEATURES),
            "scale": [round(float(v), 6) for v in scale],
            "coef": [round(float(v), 6) for v in model.coef_[0]],
            "priors": priors,
            "training_data_sha256": data_hash,
            "excluded": sorted(excluded),
            "training_texts": sorted(cr.text_hash(v.intervention) for v in items.values()),
            "cv": {
                "within_text_auc": round(auc, 4),
                "length_only_auc": round(auc_len, 4),
                "folds": 5,
                "grouped_by": "intervention",
                "features_used": list(chosen),
                "C": chosen_c,
                "selection": "inner 4-fold grouped CV within each outer fold",
            },
            "match_cosine": cr.MATCH_COSINE,
        }
        identity = hashlib.sha256(
            json.dumps([body["coef"], body["scale"], body["priors"]], sort_keys=True).encode()
        ).hexdigest()
        body["identity"] = identity[:12]
        out = ROOT / "src/maieutic/tasks/cqs/claim_ranker.json"
        out.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out.relative_to(ROOT)} (identity {body['identity']})")


if __name__ == "__main__":
    main()
