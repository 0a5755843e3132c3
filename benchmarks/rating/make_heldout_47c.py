"""The third blind rating of issue 47: what ``ask`` shows at the start of a round of
work against what it shows after it, on the 44 held-out texts of the first two ratings
and on a fresh group no one has labelled, rated or read (``heldout_47c.json``, fixed
before the round began).

    python benchmarks/rating/make_heldout_47c.py --dump r47h3/start.json  # at the start
    python benchmarks/rating/make_heldout_47c.py --dump r47h3/now.json    # after
    python benchmarks/rating/make_heldout_47c.py                # r47h3/items.json, key.json
    python benchmarks/rating/make_heldout_47c.py --report       # the figures, once rated

The items pool both dumps and calibration items (as in ``make_heldout_47.py``), exact
duplicates dropped, shuffled within each text under opaque ids. Texts are split into
two halves, each rated by its own pair of strict raters (``labels_{a,b}`` for half 0,
``labels_{c,d}`` for half 1).
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
OUT = HERE / "r47h3"
SHARED = HERE.parents[2] / "shared" / "data"
SEED = 47493
ROUNDS = ("start", "now")
PARTS = ("claims", "socratic")
PAIRS = ("ab", "cd")


def held_out_texts() -> dict[str, dict]:
    """The 44 texts of the first ratings, then the fresh group, each with ``group``."""
    from make_heldout_47 import held_out_texts as first_texts

    texts = {k: {**v, "group": "rated-before"} for k, v in first_texts().items()}
    plan = json.loads((HERE / "heldout_47c.json").read_text())
    for file, ids in (("validation-dev.json", plan["cqs_validation_dev"]),
                      ("test-dev.json", plan["cqs_test_dev"])):  # fmt: skip
        data = json.loads((SHARED / "cqs" / file).read_text())
        for key in ids:
            texts[key] = {"source": "cqs", "kind": "debate", "file": file,
                          "text": data[key]["intervention"], "group": "fresh"}  # fmt: skip
    with (SHARED / "focus" / "dev_gold.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for index in plan["focus_dev_gold_rows"]:
        texts[f"focus-{index}"] = {"source": "focus", "kind": "essay",
                                   "text": rows[index]["Argument"], "group": "fresh"}  # fmt: skip
    return texts


def dump(path: Path) -> None:
    """The default's critical and Socratic questions for every text."""
    from maieutic.registry import create
    from maieutic.tasks.focus.type_labels import FocusItem, FocusSet

    claims = create("generator", task="cqs", name="claims")
    focus = create("generator", task="focus", name="claims")
    out = {}
    for text_id, entry in held_out_texts().items():
        found = claims.questions_for(entry["text"])
        data = FocusSet(
            items={text_id: FocusItem(id=text_id, argument=entry["text"], category=None)},
            source="<h>",
            name="h",
        )
        [outcome] = focus.generate(data).outcomes
        out[text_id] = {
            "claims": found.questions,
            "claims_note": found.note,
            "socratic": [label.question for label in outcome.labels if label.question],
        }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False))
    print(f"{len(out)} texts: {sum(len(v['claims']) for v in out.values())} critical, "
          f"{sum(len(v['socratic']) for v in out.values())} Socratic questions")  # fmt: skip


def make() -> None:
    """Pool both dumps and calibration; write items (one file per half) and the key."""
    from make_candidates_47 import _calibration, _extended, opaque_ids

    texts = held_out_texts()
    dumps = {r: json.loads((OUT / f"{r}.json").read_text()) for r in ROUNDS}
    rng, extended = random.Random(SEED), _extended()
    order = list(texts)
    rng.shuffle(order)
    half = {t: n % len(PAIRS) for n, t in enumerate(order)}
    items: dict[int, list] = defaultdict(list)
    key: dict[str, dict] = {}
    for text_id, entry in texts.items():
        pooled: dict[str, list[str]] = defaultdict(list)
        for r in ROUNDS:
            for part in PARTS:
                for question in dumps[r][text_id][part]:
                    pooled[question].append(f"{part}-{r}")
        for question, source in _calibration(text_id, entry, rng, extended):
            pooled[question].append(source)
        for qid, question in opaque_ids(pooled, rng, prefix="m", start=len(key)):
            key[qid] = {"text_id": text_id, "source": entry["source"], "group": entry["group"],
                        "half": half[text_id], "question": question,
                        "systems": pooled[question]}  # fmt: skip
            items[half[text_id]].append({"qid": qid, "text_id": text_id, "question": question})
    for h, rows in items.items():
        ids = {i["text_id"] for i in rows}
        shown = {k: {"kind": v["kind"], "text": v["text"]} for k, v in texts.items() if k in ids}
        (OUT / f"items_{h}.json").write_text(
            json.dumps({"texts": shown, "questions": rows}, indent=1, ensure_ascii=False)
        )
    (OUT / "key.json").write_text(json.dumps({"items": key}, indent=1, ensure_ascii=False))
    print(f"{sum(map(len, items.values()))} items over {len(texts)} texts "
          f"({', '.join(f'half {h}: {len(r)}' for h, r in sorted(items.items()))})")  # fmt: skip


def report() -> None:
    """Per system, group and source: Useful, Invalid, well-formed, Useful per text (with
    a bootstrap interval over texts); calibration; κ per pair."""
    from make_heldout_47b import _interval, _labels
    from sklearn.metrics import cohen_kappa_score

    key = json.loads((OUT / "key.json").read_text())["items"]
    texts = held_out_texts()
    labels: dict[str, list[dict]] = defaultdict(list)
    for pair in PAIRS:
        raters = [_labels(OUT / f"labels_{r}.jsonl") for r in pair]
        both = sorted(set(raters[0]) & set(raters[1]))
        for name, f in (("Useful vs rest", lambda x: x["label"] == "Useful"),
                        ("three classes", lambda x: x["label"]),
                        ("well-formed", lambda x: bool(x["well_formed"]))):  # fmt: skip
            kappa = cohen_kappa_score(
                [f(raters[0][q]) for q in both], [f(raters[1][q]) for q in both]
            )
            print(f"raters {pair}: {len(both)} questions, kappa {name}: {kappa:.2f}")
        for q in both:
            labels[q] = [raters[0][q], raters[1][q]]
    rng = random.Random(SEED)
    systems = ["reference-useful", "reference-invalid", "system-useful", "system-other",
               *(f"{p}-{r}" for p in PARTS for r in ROUNDS)]  # fmt: skip
    groups = [("all", lambda v: True)]
    groups += [(g, lambda v, g=g: v["group"] == g) for g in ("rated-before", "fresh")]
    groups += [(s, lambda v, s=s: v["source"] == s) for s in ("cqs", "focus", "qgeval")]
    for system in systems:
        ids = [q for q in labels if system in key[q]["systems"]]
        for kind, belongs in groups:
            chosen = [q for q in ids if belongs(texts[key[q]["text_id"]])]
            ids_texts = [t for t, v in texts.items() if belongs(v)]
            if not chosen:
                continue

            def mean(f, chosen=chosen) -> float:
                return sum(f(r) for q in chosen for r in labels[q]) / (2 * len(chosen))

            per_text = [
                sum(r["label"] == "Useful" for q in chosen if key[q]["text_id"] == t
                    for r in labels[q]) / 2
                for t in ids_texts
            ]  # fmt: skip
            asked = sum(any(key[q]["text_id"] == t for q in chosen) for t in ids_texts)
            print(
                f"{system:18} {kind:12} n={len(chosen):3} texts asked {asked:2}/{len(ids_texts):2}"
                f"  Useful {mean(lambda x: x['label'] == 'Useful'):.2f}"
                f"  Invalid {mean(lambda x: x['label'] == 'Invalid'):.2f}"
                f"  well-formed {mean(lambda x: bool(x['well_formed'])):.2f}"
                f"  Useful per text {sum(per_text) / len(per_text):.2f} "
                f"{_interval(per_text, rng)}"
            )


def main() -> None:
    """Dump one version's questions, write the items, or report on the labels."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dump", type=Path)
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    if args.dump:
        dump(args.dump if args.dump.is_absolute() else HERE / args.dump)
    elif args.report:
        report()
    else:
        make()


if __name__ == "__main__":
    main()
