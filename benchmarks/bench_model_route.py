"""What the model route of ``ask``/``generate cqs --generator pooled`` does with a real
model: how many of its questions the precision filter keeps, and at what cost in time.

    python benchmarks/bench_model_route.py [--candidates 3] [--out FILE.json]
    python benchmarks/bench_model_route.py --judge-auc

Starts llama.cpp's OpenAI-compatible server with the embedded SmolLM2-135M on a free
loopback port (``maieutic.llm.server.LocalServer``, needs ``maieutic setup-llm``) and
runs the pooled generator over the 44 held-out texts of the blind rating
(``rating/heldout_47.json``: no choice of the route was made on them). Prints, per
source and in all: texts, the model's candidates, how many were well-formed and about a
claim of the text, how many took a slot (in place of a claims question, or in one left
empty), and the seconds per text; ``--out`` keeps every text's choice for a blind
rating.

``--judge-auc`` prints, instead, how well the shipped usefulness judge and the
precision filter rank the strictly rated development candidates (``rating/r47``): the
reason the route is decided by the filter.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "rating"))


def route(candidates: int, out: Path | None) -> None:
    """Run the pooled generator with the real server and print what it kept."""
    os.environ.setdefault("MAIEUTIC_HOME", tempfile.mkdtemp())
    from make_heldout_47 import held_out_texts

    from maieutic.language.wellformed import check_question
    from maieutic.llm.server import SERVED_MODEL_NAME, LocalServer
    from maieutic.registry import create
    from maieutic.tasks.cqs.api import CQDataset, Intervention
    from maieutic.tasks.cqs.pooled_generator import FROM_MODEL, claim_of, pool

    texts = held_out_texts()
    server = LocalServer().start()
    counts: dict[str, Counter] = {}
    kept_rows = []
    try:
        generator = create(
            "generator", task="cqs", name="pooled", llm=SERVED_MODEL_NAME, base_url=server.base_url,
            candidates=candidates,
        )  # fmt: skip
        for text_id, entry in texts.items():
            dataset = CQDataset(
                interventions={
                    text_id: Intervention(intervention_id=text_id, intervention=entry["text"])
                },
                source="<bench>",
            )
            start = time.perf_counter()
            [outcome] = generator.model.generate(dataset).outcomes
            choice = pool(entry["text"], outcome.candidates, generator.claims,
                          candidate_filter=generator.candidate_filter)  # fmt: skip
            seconds = time.perf_counter() - start
            usable = [
                q for q in outcome.candidates
                if not check_question(q, entry["text"]) and claim_of(q, choice.reading) >= 0
            ]  # fmt: skip
            for key in (entry["source"], "all"):
                c = counts.setdefault(key, Counter())
                c["texts"] += 1
                c["candidates"] += len(outcome.candidates)
                c["usable"] += len(usable)
                c["replaced"] += choice.replaced
                c["filled"] += choice.filled
                c["questions"] += len(choice.chosen)
                c["seconds"] += seconds
            kept_rows.append({
                "text_id": text_id, "source": entry["source"],
                "chosen": [{"question": q.question, "written_by": q.origin,
                            "p_useful": round(q.p_useful, 4)} for q in choice.chosen],
                "model_candidates": outcome.candidates,
            })  # fmt: skip
    finally:
        server.stop()
    print(f"pooled route, {SERVED_MODEL_NAME} on llama.cpp, {candidates} sample(s) per text")
    print("source     texts  candidates  usable  replaced  filled  questions  s/text")
    for key, c in counts.items():
        print(
            f"{key:<10} {c['texts']:>5}  {c['candidates']:>10}  {c['usable']:>6}  "
            f"{c['replaced']:>8}  {c['filled']:>6}  {c['questions']:>9}  "
            f"{c['seconds'] / c['texts']:>6.2f}"
        )
    model = sum(q["written_by"] == FROM_MODEL for r in kept_rows for q in r["chosen"])
    chosen = sum(len(r["chosen"]) for r in kept_rows)
    print(f"model questions among the chosen: {model} of {chosen}")
    if out:
        out.write_text(json.dumps(kept_rows, indent=1, ensure_ascii=False))


def judge_auc() -> None:
    """ROC AUC of the usefulness judge and of the filter's training scores on the
    strictly rated development candidates (Useful by both raters' mean ≥ 0.5)."""
    import numpy as np
    from sklearn.metrics import roc_auc_score

    from maieutic.embed.encoder import shared_encoder
    from maieutic.embed.store import EmbeddingStore
    from maieutic.tasks.cqs.usefulness import load_judge

    folder = HERE / "rating" / "r47"
    key = json.loads((folder / "key.json").read_text())
    texts: dict[str, str] = {}
    labels: dict[str, list[str]] = {}
    for batch in sorted(folder.glob("batch_*")):
        shown = json.loads((batch / "items.json").read_text())["texts"]
        texts.update({k: v["text"] for k, v in shown.items()})
        for rater in ("a", "b"):
            for line in (batch / f"labels_{rater}.jsonl").read_text().splitlines():
                if line.strip():
                    row = json.loads(line)
                    labels.setdefault(row["qid"], []).append(row["label"])
    rows = [(q, e) for q, e in key.items() if "claims-candidate" in e["sources"] and q in labels]
    y = np.array([np.mean([label == "Useful" for label in labels[q]]) >= 0.5 for q, _ in rows])
    judge = load_judge("usefulness")
    encoder = shared_encoder(judge.manifest["features"].get("encoder_model") or None)
    p = judge.score(encoder, [texts[e["text_id"]] for _, e in rows],
                    [e["question"] for _, e in rows], schemes=None,
                    store=EmbeddingStore())  # fmt: skip
    print(f"{len(rows)} rated claims candidates, {y.mean():.2f} Useful")
    print(f"usefulness judge: ROC AUC {roc_auc_score(y, p):.3f}")
    own = roc_auc_score(y, [e["score"] for _, e in rows])
    print(f"claims generator's own score: ROC AUC {own:.3f}")
    print("precision filter: cross-validated ROC AUC in candidate_filter.json "
          "(benchmarks/train_candidate_filter.py)")  # fmt: skip


def main() -> None:
    """Measure the route, or the judge's ranking of rated candidates."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--candidates", type=int, default=3)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--judge-auc", action="store_true")
    args = parser.parse_args()
    if args.judge_auc:
        judge_auc()
    else:
        route(args.candidates, args.out)


if __name__ == "__main__":
    main()
