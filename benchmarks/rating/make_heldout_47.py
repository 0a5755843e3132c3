"""The blind rating of issue 47 on the held-out texts: today's choice against the filter's.

    python benchmarks/rating/make_heldout_47.py            # write r47h/items.json, key.json
    python benchmarks/rating/make_heldout_47.py --report   # the figures, once rated

The texts (``heldout_47.json``) were fixed before anything was built and never
labelled for training: 20 CQs development interventions, 12 FOCUS arguments, 12
QGEval passages. Each text's questions from the claims generator as it chooses by its
own rules (``--selector first``) and with the precision filter (``--selector filter``)
are pooled with calibration items (for a CQs text, 2 reference questions people
labelled Useful and 1 labelled Invalid; for a test-dev text also 1 system question
people labelled Useful and 1 they labelled otherwise), exact duplicates dropped (the
key lists every source), shuffled within each text, under opaque ids.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "r47h"
SHARED = HERE.parents[2] / "shared" / "data"
SEED = 4749
SYSTEMS = ("first", "filter")


def held_out_texts() -> dict[str, dict]:
    """Every held-out text by id: ``{"source", "kind", "text"}`` (CQs: its file)."""
    plan = json.loads((HERE / "heldout_47.json").read_text())
    texts: dict[str, dict] = {}
    for file, ids in (("test-dev.json", plan["cqs_test_dev"]),
                      ("validation-dev.json", plan["cqs_validation_dev"])):  # fmt: skip
        data = json.loads((SHARED / "cqs" / file).read_text())
        for key in ids:
            texts[key] = {"source": "cqs", "kind": "debate", "file": file,
                          "text": data[key]["intervention"]}  # fmt: skip
    with (SHARED / "focus" / "dev_gold.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for index in plan["focus_dev_gold_rows"]:
        texts[f"focus-{index}"] = {"source": "focus", "kind": "essay",
                                   "text": rows[index]["Argument"]}  # fmt: skip
    passages = json.loads((SHARED / "qgeval" / "instances-dev.json").read_text())
    for index in plan["qgeval_dev_indices"]:
        texts[f"qgeval-{index}"] = {"source": "qgeval", "kind": "passage",
                                    "text": passages[index]["passage"]}  # fmt: skip
    return texts


def make() -> None:
    """Generate both systems' questions, pool with calibration, write items and key."""
    from make_candidates_47 import _calibration, _extended

    from maieutic.registry import create

    texts = held_out_texts()
    generators = {
        name: create("generator", task="cqs", name="claims", selector=name) for name in SYSTEMS
    }
    rng, extended = random.Random(SEED), _extended()
    items, key, notes, n = [], {}, {}, 0
    for text_id, entry in texts.items():
        pooled: dict[str, list[str]] = defaultdict(list)
        for name, generator in generators.items():
            found = generator.questions_for(entry["text"])
            notes[f"{name}:{text_id}"] = found.note
            for question in found.questions:
                pooled[question].append(name)
        for question, source in _calibration(text_id, entry, rng, extended):
            pooled[question].append(source)
        questions = list(pooled)
        rng.shuffle(questions)
        for question in questions:
            n += 1
            qid = f"h{rng.randrange(16**6):06x}{n:03d}"
            key[qid] = {"text_id": text_id, "source": entry["source"], "question": question,
                        "systems": pooled[question]}  # fmt: skip
            items.append({"qid": qid, "text_id": text_id, "question": question})
    OUT.mkdir(exist_ok=True)
    shown = {k: {"kind": v["kind"], "text": v["text"]} for k, v in texts.items()}
    (OUT / "items.json").write_text(
        json.dumps({"texts": shown, "questions": items}, indent=1, ensure_ascii=False)
    )
    (OUT / "key.json").write_text(
        json.dumps({"items": key, "notes": notes}, indent=1, ensure_ascii=False)
    )
    print(f"{len(items)} items over {len(texts)} texts")


def _labels(path: Path) -> dict[str, dict]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {r["qid"]: r for r in rows}


def report() -> None:
    """Per system: Useful, Invalid, well-formed, Useful per text; calibration; κ."""
    from sklearn.metrics import cohen_kappa_score

    data = json.loads((OUT / "key.json").read_text())
    key, texts = data["items"], held_out_texts()
    raters = [_labels(OUT / f"labels_{r}.jsonl") for r in "ab"]
    both = sorted(set(raters[0]) & set(raters[1]))
    print(f"{len(both)} questions rated by both raters, {len(texts)} texts")
    for name, f in (("Useful vs rest", lambda x: x["label"] == "Useful"),
                    ("three classes", lambda x: x["label"]),
                    ("well-formed", lambda x: bool(x["well_formed"]))):  # fmt: skip
        kappa = cohen_kappa_score([f(raters[0][q]) for q in both], [f(raters[1][q]) for q in both])
        print(f"kappa {name}: {kappa:.2f}")
    sources = ["reference-useful", "reference-invalid", "system-useful", "system-other", *SYSTEMS]
    for source in sources:
        ids = [q for q in both if source in key[q]["systems"]]
        if not ids:
            continue
        for kind in ("all", "cqs", "focus", "qgeval"):
            chosen = [q for q in ids if kind == "all" or key[q]["source"] == kind]
            n_texts = sum(1 for t in texts.values() if kind == "all" or t["source"] == kind)
            if not chosen:
                continue
            rates = []
            for rater in raters:
                useful = sum(rater[q]["label"] == "Useful" for q in chosen)
                invalid = sum(rater[q]["label"] == "Invalid" for q in chosen)
                formed = sum(bool(rater[q]["well_formed"]) for q in chosen)
                rates.append((useful / len(chosen), invalid / len(chosen),
                              formed / len(chosen), useful / n_texts))  # fmt: skip
            mean = [sum(r[i] for r in rates) / 2 for i in range(4)]
            per_rater = " / ".join(f"{r[0]:.2f}" for r in rates)
            print(f"{source:18} {kind:6} n={len(chosen):3}  Useful {mean[0]:.2f} ({per_rater})"
                  f"  Invalid {mean[1]:.2f}  well-formed {mean[2]:.2f}"
                  f"  Useful per text {mean[3]:.2f}")  # fmt: skip
    for name in SYSTEMS:
        silent = [k for k, v in data["notes"].items() if k.startswith(name) and v]
        print(f"{name}: notes on {len(silent)} texts")


def main() -> None:
    """Write the items, or report on the labels that came back."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    report() if args.report else make()


if __name__ == "__main__":
    main()
