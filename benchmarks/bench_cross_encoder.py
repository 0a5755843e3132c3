"""The second scorer family: a cross-encoder fine-tuned on CPU from the embedded MiniLM
weights (sentence-transformers), on the same grouped folds as the logistic regression,
for an honest comparison of P(Useful | intervention, question).

    python benchmarks/bench_cross_encoder.py [--folds 1] [--epochs 1] [--max-length 256]

``--folds 1`` trains on four fifths of the interventions and tests on the fifth fold
(the first of the five used everywhere else); the logistic regression is fitted and
tested on exactly the same split. Prints training time, AUC and κ for both.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from sklearn.metrics import cohen_kappa_score, roc_auc_score

from maieutic.embed.encoder import Encoder, embedded_model_path
from maieutic.embed.store import EmbeddingStore
from maieutic.scorers.features import pair_features
from maieutic.scorers.grouped_cv import grouped_folds
from maieutic.scorers.train import DEFAULT_C, base_rate_threshold, fit_linear
from maieutic.scorers.training_run import read_examples

CQS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "cqs" / "validation-dev.json"


def cross_encoder_fold(examples, train, test, epochs: int, max_length: int, seed: int):
    """Fine-tune on ``train``, return probabilities on ``test`` and the seconds taken."""
    import torch
    from sentence_transformers.cross_encoder import CrossEncoder
    from sentence_transformers.readers import InputExample
    from torch.utils.data import DataLoader

    torch.manual_seed(seed)
    model = CrossEncoder(str(embedded_model_path()), num_labels=1, max_length=max_length)
    rows = [
        InputExample(texts=[examples.questions[i], examples.contexts[i]], label=float(t))
        for i, t in zip(train, examples.target[train], strict=True)
    ]
    loader = DataLoader(rows, shuffle=True, batch_size=16)
    start = time.perf_counter()
    model.fit(train_dataloader=loader, epochs=epochs, warmup_steps=len(loader) // 10,
              show_progress_bar=False)  # fmt: skip
    seconds = time.perf_counter() - start
    pairs = [[examples.questions[i], examples.contexts[i]] for i in test]
    return np.asarray(model.predict(pairs, show_progress_bar=False)), seconds, model


def main() -> None:
    """Train and compare on the chosen folds."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--folds", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--max-length", type=int, default=256)
    args = parser.parse_args()
    examples = read_examples("cqs", CQS)
    y = examples.target
    features = pair_features(Encoder(), examples.contexts, examples.questions, examples.schemes,
                             EmbeddingStore())  # fmt: skip
    for f, (train, test) in enumerate(grouped_folds(examples.groups, 5, 0)[: args.folds]):
        ce, seconds, model = cross_encoder_fold(
            examples, train, test, args.epochs, args.max_length, 0
        )
        ce_train = np.asarray(
            model.predict(
                [[examples.questions[i], examples.contexts[i]] for i in train],
                show_progress_bar=False,
            )
        )
        ce_kappa = cohen_kappa_score(y[test], ce >= base_rate_threshold(ce_train, y[train]))
        labels = [examples.labels[i] for i in train]
        start = time.perf_counter()
        pipe = fit_linear(features[train], labels, DEFAULT_C, 0)
        lr_seconds = time.perf_counter() - start
        k = list(pipe.classes_).index("Useful")
        lr = pipe.predict_proba(features[test])[:, k]
        lr_thr = base_rate_threshold(pipe.predict_proba(features[train])[:, k], y[train])
        print(
            f"fold {f} ({len(train)} train / {len(test)} test pairs): cross-encoder AUC "
            f"{roc_auc_score(y[test], ce):.3f} κ {ce_kappa:.3f} ({seconds:.0f} s training); "
            f"logistic regression AUC {roc_auc_score(y[test], lr):.3f} κ "
            f"{cohen_kappa_score(y[test], lr >= lr_thr):.3f} ({lr_seconds:.1f} s)"
        )


if __name__ == "__main__":
    main()
