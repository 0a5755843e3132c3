"""The weak end of the model route, rated blind (issue 58, item 5): what ``ask --llm``
shows with the embedded SmolLM2-135M against what it shows offline, on held-out texts.

    python benchmarks/bench_model_route.py --out /tmp/route.json     # the questions
    python benchmarks/replay/make_rating_58.py --make /tmp/route.json # r58s/items_*.json, key
    python benchmarks/replay/make_rating_58.py --report              # once rated

The texts are those of ``bench_model_route.py`` (the 40 CQs interventions of
``heldout_58.json`` and 12 FOCUS arguments of ``rating/heldout_47c.json``). Per text the
items pool the questions of three systems — ``offline`` (the claims generator alone),
``offline-first`` (the rules' questions, then SmolLM2's usable ones in the slots they
leave empty: what ``ask --llm embedded`` showed when this was rated, the route's
``auto`` order for a model measured weaker than the rules, retired after this rating)
and ``model-first`` (SmolLM2's usable questions first) — with calibration items as
``../shared/blind-rating.md`` asks (2 reference questions labelled Useful and 1
labelled Invalid per CQs text; on test texts 1 system question people labelled Useful
and 1 they did not), exact duplicates dropped,
shuffled within each text under opaque ids. Two halves of the texts, each rated by its
own pair of strict raters (``labels_{a,b}`` half 0, ``labels_{c,d}`` half 1).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "rating"))
OUT = HERE / "r58s"
SEED = 5858
SYSTEMS = ("offline", "offline-first", "model-first")
CALIBRATION = ("reference-useful", "reference-invalid", "system-useful", "system-other")
PAIRS = ("ab", "cd")


def _entry(text_id: str, kept: dict) -> dict:
    """What ``make_candidates_47._calibration`` reads of a text."""
    if kept["source"] != "debate":
        return {"source": "focus"}
    plan = json.loads((HERE / "heldout_58.json").read_text())
    file = "test-dev.json" if text_id in plan["cqs_test_dev"] else "validation-dev.json"
    return {"source": "cqs", "file": file}


def make(route: Path) -> None:
    """Pool the three systems and calibration; write the items (a file per half) and key."""
    from make_candidates_47 import _calibration, _extended, opaque_ids

    dumped = json.loads(route.read_text())
    OUT.mkdir(exist_ok=True)
    (OUT / "route.json").write_text(json.dumps(dumped, indent=1, ensure_ascii=False))
    rng, extended = random.Random(SEED), _extended()
    order = sorted(dumped)
    rng.shuffle(order)
    half = {t: n % len(PAIRS) for n, t in enumerate(order)}
    items: dict[int, list] = defaultdict(list)
    key: dict[str, dict] = {}
    for text_id in sorted(dumped):
        kept = dumped[text_id]
        pooled: dict[str, list[str]] = defaultdict(list)
        for system in SYSTEMS:
            for q in kept[system]:
                pooled[q["question"]].append(f"{system}:{q['written_by']}")
        for question, source in _calibration(text_id, _entry(text_id, kept), rng, extended):
            pooled[question].append(source)
        for qid, question in opaque_ids(pooled, rng, prefix="s", start=len(key)):
            key[qid] = {"text_id": text_id, "source": kept["source"], "half": half[text_id],
                        "question": question, "systems": pooled[question]}  # fmt: skip
            items[half[text_id]].append({"qid": qid, "text_id": text_id, "question": question})
    for h, rows in items.items():
        ids = {i["text_id"] for i in rows}
        shown = {t: {"kind": dumped[t]["source"], "text": dumped[t]["text"]} for t in sorted(ids)}
        (OUT / f"items_{h}.json").write_text(
            json.dumps({"texts": shown, "questions": rows}, indent=1, ensure_ascii=False)
        )
    (OUT / "key.json").write_text(json.dumps({"items": key}, indent=1, ensure_ascii=False))
    print(f"{sum(map(len, items.values()))} items over {len(dumped)} texts "
          f"({', '.join(f'half {h}: {len(r)}' for h, r in sorted(items.items()))})")  # fmt: skip


def report() -> None:
    """κ per pair; calibration; per system: Useful, Invalid and well-formed rates, texts
    asked, and Useful and Invalid per text with bootstrap intervals over texts."""
    from make_heldout_47b import _interval, _labels
    from sklearn.metrics import cohen_kappa_score

    key = json.loads((OUT / "key.json").read_text())["items"]
    route = json.loads((OUT / "route.json").read_text())
    labels: dict[str, list[dict]] = {}
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
        labels.update({q: [raters[0][q], raters[1][q]] for q in both})

    def rate(ids: list[str], f) -> float:
        return sum(f(r) for q in ids for r in labels[q]) / (2 * len(ids)) if ids else float("nan")

    for source in CALIBRATION:
        ids = [q for q in labels if source in key[q]["systems"]]
        print(f"calibration {source:18} n={len(ids):3}  rated Useful "
              f"{rate(ids, lambda x: x['label'] == 'Useful'):.2f}")  # fmt: skip
    rng = random.Random(SEED)
    for kind in ("all", "debate", "essay"):
        texts = [t for t, v in route.items() if kind in ("all", v["source"])]
        for system in (*SYSTEMS, *(f"{s}:model" for s in SYSTEMS[1:])):

            def shown(q, system=system):
                return any(s == system or s.startswith(f"{system}:") for s in key[q]["systems"])

            ids = [q for q in labels if shown(q) and key[q]["text_id"] in texts]
            per_text = {
                name: [sum(r["label"] == name for q in ids if key[q]["text_id"] == t
                           for r in labels[q]) / 2 for t in texts]
                for name in ("Useful", "Invalid")
            }  # fmt: skip
            asked = len({key[q]["text_id"] for q in ids})
            print(
                f"{kind:6} {system:18} n={len(ids):3} texts asked {asked:2}/{len(texts):2}"
                f"  Useful {rate(ids, lambda x: x['label'] == 'Useful'):.2f}"
                f"  Invalid {rate(ids, lambda x: x['label'] == 'Invalid'):.2f}"
                f"  well-formed {rate(ids, lambda x: bool(x['well_formed'])):.2f}"
                f"  Useful/text {sum(per_text['Useful']) / len(texts):.2f} "
                f"{_interval(per_text['Useful'], rng)}"
                f"  Invalid/text {sum(per_text['Invalid']) / len(texts):.2f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--make", type=Path, help="bench_model_route.py's --out file")
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    if args.make:
        make(args.make)
    elif args.report:
        report()
    else:
        parser.error("give --make ROUTE.json or --report")


if __name__ == "__main__":
    main()
