"""The offline default before and after issue 59's changes, on the held-out texts of the
weak-end rating (``r58s``: 40 CQs interventions, 12 FOCUS arguments), rated blind.

    python benchmarks/replay/make_rating_59.py --make     # r59/items.json, key.json
    python benchmarks/replay/make_rating_59.py --report   # once rated

``r58s`` rated the default's questions at the start of the issue (its ``offline``
system). Only the texts whose questions the changes altered need rating again: their new
questions, pooled with calibration items as ``make_rating_58.py`` pools them (2
reference questions labelled Useful and 1 Invalid; on test texts 1 system question
people labelled Useful and 1 they did not), shuffled under opaque ids, rated by two new
strict raters (``labels_{e,f}``). The report gives Useful and Invalid per text over all
52 texts, before and after, each question's label the mean of its two raters.
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
sys.path.insert(0, str(HERE))
BEFORE = HERE / "r58s"
OUT = HERE / "r59"
SEED = 5959
RATERS = ("e", "f")


def changed() -> dict[str, dict]:
    """The held-out texts whose default questions differ from those rated in r58s."""
    from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator

    route = json.loads((BEFORE / "route.json").read_text())
    generator = ClaimsCQGenerator()
    out = {}
    for text_id, kept in route.items():
        now = generator.questions_for(kept["text"]).questions
        before = [q["question"] for q in kept["offline"]]
        if now != before:
            out[text_id] = {"source": kept["source"], "text": kept["text"], "before": before,
                            "now": now}  # fmt: skip
    return out


def make() -> None:
    """Pool the changed texts' new questions with calibration; write items and key."""
    from make_candidates_47 import _calibration, _extended, opaque_ids
    from make_rating_58 import _entry

    found = changed()
    OUT.mkdir(exist_ok=True)
    (OUT / "changed.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))
    rng, extended = random.Random(SEED), _extended()
    items, key = [], {}
    for text_id, entry in sorted(found.items()):
        pooled: dict[str, list[str]] = defaultdict(list)
        for q in entry["now"]:
            pooled[q].append("now")
        for question, source in _calibration(text_id, _entry(text_id, entry), rng, extended):
            pooled[question].append(source)
        for qid, question in opaque_ids(pooled, rng, prefix="t", start=len(key)):
            key[qid] = {"text_id": text_id, "question": question, "systems": pooled[question]}
            items.append({"qid": qid, "text_id": text_id, "question": question})
    shown = {t: {"kind": e["source"], "text": e["text"]} for t, e in sorted(found.items())}
    (OUT / "items.json").write_text(
        json.dumps({"texts": shown, "questions": items}, indent=1, ensure_ascii=False)
    )
    (OUT / "key.json").write_text(json.dumps({"items": key}, indent=1, ensure_ascii=False))
    print(f"{len(items)} items over {len(found)} changed texts")


def report() -> None:
    """κ, calibration, and Useful and Invalid per text before and after over all texts."""
    from make_heldout_47b import _labels
    from sklearn.metrics import cohen_kappa_score

    key = json.loads((OUT / "key.json").read_text())["items"]
    found = json.loads((OUT / "changed.json").read_text())
    raters = [_labels(OUT / f"labels_{r}.jsonl") for r in RATERS]
    both = sorted(set(raters[0]) & set(raters[1]))
    kappa = cohen_kappa_score(
        [raters[0][q]["label"] == "Useful" for q in both],
        [raters[1][q]["label"] == "Useful" for q in both],
    )
    print(f"raters {''.join(RATERS)}: {len(both)} questions, kappa Useful vs rest {kappa:.2f}")

    def mean(ids, label):
        return sum(r[q]["label"] == label for q in ids for r in raters) / 2

    for source in ("reference-useful", "reference-invalid", "system-useful", "system-other"):
        ids = [q for q in both if source in key[q]["systems"]]
        if ids:
            rate = mean(ids, "Useful") / len(ids)
            print(f"calibration {source:18} n={len(ids)} rated Useful {rate:.2f}")
    before_key = json.loads((BEFORE / "key.json").read_text())["items"]
    before_labels = {}
    for pair in ("ab", "cd"):
        rated = [_labels(BEFORE / f"labels_{r}.jsonl") for r in pair]
        for q in set(rated[0]) & set(rated[1]):
            before_labels[q] = [rated[0][q], rated[1][q]]
    route = json.loads((BEFORE / "route.json").read_text())
    per_text = {}
    for text_id in route:
        ids = [
            q
            for q, v in before_key.items()
            if v["text_id"] == text_id and "offline:claims" in v["systems"] and q in before_labels
        ]
        per_text[text_id] = {
            label: sum(r["label"] == label for q in ids for r in before_labels[q]) / 2
            for label in ("Useful", "Invalid")
        }
    after = dict(per_text)
    for text_id in found:
        ids = [q for q in both if key[q]["text_id"] == text_id and "now" in key[q]["systems"]]
        after[text_id] = {label: mean(ids, label) for label in ("Useful", "Invalid")}
    n = len(route)
    for name, table in (("before", per_text), ("after", after)):
        useful = sum(v["Useful"] for v in table.values()) / n
        invalid = sum(v["Invalid"] for v in table.values()) / n
        print(f"{name:6} {n} texts: Useful per text {useful:.3f}, Invalid per text {invalid:.3f}")
    for text_id, entry in found.items():
        got = after[text_id]
        print(f"  {text_id}: {len(entry['before'])} -> {len(entry['now'])} questions, "
              f"Useful {got['Useful']:.1f}, Invalid {got['Invalid']:.1f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--make", action="store_true")
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    if args.make:
        make()
    elif args.report:
        report()
    else:
        parser.error("give --make or --report")


if __name__ == "__main__":
    main()
