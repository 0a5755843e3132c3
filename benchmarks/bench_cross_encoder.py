"""The second judge family: a cross-encoder fine-tuned on CPU from the embedded MiniLM
weights, on the same grouped folds as ``bench_judge.py``, for an honest comparison of
P(Useful | intervention, question) on references and on the systems' questions.

    python benchmarks/bench_cross_encoder.py [--fold 0] [--epochs 3] [--lr 5e-5]
        [--max-length 128] [--context best|start]

The recipe the first attempt lacked: a learning-rate schedule (linear warm-up over the
first tenth, then linear decay), several epochs, a class weight on the positive class
(the negative-to-positive ratio of the training side), and early stopping on a grouped
validation split (a tenth of the training side's interventions, never the test side):
the validation AUC is measured every half epoch and the best state is kept. Training
loss and validation AUC are printed at every check, which is how under- and
over-fitting are told apart.

The context is the intervention's three sentences most similar to the question (by the
embedded encoder), in text order (``best``), or the intervention from its start
(``start``, the first attempt's choice) — either cut to ``--max-length`` tokens with
the question kept whole. Needs the optional extra ``train`` (transformers); reads the
data as ``bench_judge.py`` does (the script's folder is on the import path).
"""

from __future__ import annotations

import argparse
import re
import time

import numpy as np
from sklearn.metrics import cohen_kappa_score, roc_auc_score

from bench_judge import load
from maieutic.embed.encoder import Encoder, embedded_model_path
from maieutic.embed.store import EmbeddingStore, embed_texts
from maieutic.scorers.grouped_cv import grouped_folds
from maieutic.scorers.train import base_rate_threshold

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def best_sentences(examples, encoder, k: int = 3) -> list[str]:
    """Each question's ``k`` most similar sentences of its intervention, in text order."""
    store = EmbeddingStore()
    sentences = {c: [s for s in _SENTENCE.split(c) if s.strip()] for c in set(examples.contexts)}
    every = sorted({s for found in sentences.values() for s in found})
    vectors = embed_texts(every + list(set(examples.questions)), encoder, store)
    out = []
    for context, question in zip(examples.contexts, examples.questions, strict=True):
        found = sentences[context]
        sims = [float(vectors[s] @ vectors[question]) for s in found]
        keep = sorted(np.argsort(sims)[::-1][:k])
        out.append(" ".join(found[i] for i in keep))
    return out


def batches(rows, size, rng):
    order = rng.permutation(rows)
    return [order[i : i + size] for i in range(0, len(order), size)]


def scores_of(model, tokenizer, pairs, max_length, torch):
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(pairs), 64):
            q, c = zip(*pairs[i : i + 64], strict=True)
            enc = tokenizer(list(q), list(c), truncation="only_second", max_length=max_length,
                            padding=True, return_tensors="pt")  # fmt: skip
            out.append(model(**enc).logits[:, 0].numpy())
    model.train()
    return np.concatenate(out)


def train_fold(examples, contexts, train, args):
    """Fine-tune on ``train`` with early stopping on a grouped validation split."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    groups = sorted({examples.groups[i] for i in train})
    held = set(rng.permutation(groups)[: max(1, len(groups) // 10)])
    valid = np.array([i for i in train if examples.groups[i] in held])
    fit = np.array([i for i in train if examples.groups[i] not in held])
    y = examples.target.astype(np.float32)
    path = str(embedded_model_path())
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForSequenceClassification.from_pretrained(path, num_labels=1)
    steps_per_epoch = -(-len(fit) // args.batch)
    total = steps_per_epoch * args.epochs
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    warmup = max(1, total // 10)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min((s + 1) / warmup, max(0.0, (total - s) / (total - warmup)))
    )
    positive = float(y[fit].mean())
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor((1 - positive) / positive))
    pair = lambda i: (examples.questions[i], contexts[i])  # noqa: E731
    best, best_auc, step, losses = None, -1.0, 0, []
    start = time.perf_counter()
    for epoch in range(args.epochs):
        for rows in batches(fit, args.batch, rng):
            q, c = zip(*(pair(i) for i in rows), strict=True)
            enc = tokenizer(
                list(q), list(c), truncation="only_second", max_length=args.max_length,
                padding=True, return_tensors="pt",
            )  # fmt: skip
            loss = loss_fn(model(**enc).logits[:, 0], torch.from_numpy(y[rows]))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimiser.step()
            schedule.step()
            optimiser.zero_grad()
            losses.append(float(loss.detach()))
            step += 1
            if step % (steps_per_epoch // 2) == 0 or step == total:
                v = scores_of(model, tokenizer, [pair(i) for i in valid], args.max_length, torch)
                auc = roc_auc_score(y[valid], v)
                print(f"  epoch {epoch + 1} step {step}/{total}: train loss "
                      f"{np.mean(losses[-50:]):.3f}, validation AUC {auc:.3f} "
                      f"({time.perf_counter() - start:.0f} s)", flush=True)  # fmt: skip
                if auc > best_auc:
                    best_auc = auc
                    best = {k: t.detach().clone() for k, t in model.state_dict().items()}
    model.load_state_dict(best)
    fitted = scores_of(model, tokenizer, [pair(i) for i in fit], args.max_length, torch)
    threshold = base_rate_threshold(fitted, target=y[fit] > 0)
    return model, tokenizer, threshold, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--context", choices=["best", "start"], default="best")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    import torch

    _pooled, _test, _outputs, examples = load()
    is_output = np.array([bool(s) for s in examples.systems])
    strata = {g: "outputs" for g, o in zip(examples.groups, is_output, strict=True) if o}
    train, test = grouped_folds(examples.groups, 5, seed=args.seed, strata=strata)[args.fold]
    contexts = best_sentences(examples, Encoder()) if args.context == "best" else examples.contexts
    print(f"fold {args.fold}: {len(train)} training pairs, {len(test)} test pairs "
          f"({int(is_output[test].sum())} system questions)", flush=True)  # fmt: skip
    model, tokenizer, threshold, seconds = train_fold(examples, contexts, train, args)
    start = time.perf_counter()
    pairs = [(examples.questions[i], contexts[i]) for i in test]
    scores = scores_of(model, tokenizer, pairs, args.max_length, torch)
    rate = len(test) / (time.perf_counter() - start)
    y = examples.target
    for name, rows in (("system questions", is_output[test]), ("references", ~is_output[test])):
        truth, chosen = y[test][rows], scores[rows]
        kappa = cohen_kappa_score(truth, chosen >= threshold)
        print(f"{name}: AUC {roc_auc_score(truth, chosen):.3f}, κ {kappa:.3f} (n={rows.sum()})")
    print(f"training {seconds:.0f} s; scoring {rate:.0f} pairs/s")


if __name__ == "__main__":
    main()
