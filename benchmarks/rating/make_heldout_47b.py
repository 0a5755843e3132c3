"""The second blind rating of issue 47 on the same held-out texts: what ``ask`` shows
at the start of a round of work against what it shows after it.

    python benchmarks/rating/make_heldout_47b.py --dump r47h2/start.json  # at the start
    python benchmarks/rating/make_heldout_47b.py --dump r47h2/now.json    # after
    python benchmarks/rating/make_heldout_47b.py                # r47h2/items.json, key.json
    python benchmarks/rating/make_heldout_47b.py --report       # the figures, once rated

``--dump`` writes, for every held-out text (``heldout_47.json``, fixed before issue 47's
work began), the critical questions of the default claims generator and the Socratic
questions of ``ask``'s offline part (FOCUS's claims generator), from whatever version
of maieutic is imported: run it once from a checkout of the starting commit and once
from the current one. The items pool both dumps, the default's questions rated in the
first round (``r47h``, system ``first``: before any of issue 47) and calibration items
(as in ``make_heldout_47.py``), exact duplicates dropped, shuffled within each text
under opaque ids.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
OUT = HERE / "r47h2"
SEED = 47492
ROUNDS = ("start", "now")
PARTS = ("claims", "socratic")


def dump(path: Path) -> None:
    """The default's critical and Socratic questions for every held-out text."""
    from make_heldout_47 import held_out_texts

    from maieutic.registry import create
    from maieutic.tasks.focus.type_labels import FocusItem, FocusSet

    texts = held_out_texts()
    claims = create("generator", task="cqs", name="claims")
    focus = create("generator", task="focus", name="claims")
    out = {}
    for text_id, entry in texts.items():
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
    """Pool both dumps, the first round's default and calibration; write items and key."""
    from make_candidates_47 import _calibration, _extended
    from make_heldout_47 import held_out_texts

    texts = held_out_texts()
    dumps = {r: json.loads((OUT / f"{r}.json").read_text()) for r in ROUNDS}
    first = json.loads((HERE / "r47h" / "key.json").read_text())["items"]
    rng, extended = random.Random(SEED), _extended()
    items, key, n = [], {}, 0
    for text_id, entry in texts.items():
        pooled: dict[str, list[str]] = defaultdict(list)
        for q in first.values():
            if q["text_id"] == text_id and "first" in q["systems"]:
                pooled[q["question"]].append("before-47")
        for r in ROUNDS:
            for part in PARTS:
                for question in dumps[r][text_id][part]:
                    pooled[question].append(f"{part}-{r}")
        for question, source in _calibration(text_id, entry, rng, extended):
            pooled[question].append(source)
        questions = list(pooled)
        rng.shuffle(questions)
        for question in questions:
            n += 1
            qid = f"k{rng.randrange(16**6):06x}{n:03d}"
            key[qid] = {"text_id": text_id, "source": entry["source"], "question": question,
                        "systems": pooled[question]}  # fmt: skip
            items.append({"qid": qid, "text_id": text_id, "question": question})
    shown = {k: {"kind": v["kind"], "text": v["text"]} for k, v in texts.items()}
    (OUT / "items.json").write_text(
        json.dumps({"texts": shown, "questions": items}, indent=1, ensure_ascii=False)
    )
    (OUT / "key.json").write_text(json.dumps({"items": key}, indent=1, ensure_ascii=False))
    print(f"{len(items)} items over {len(texts)} texts")


def _labels(path: Path) -> dict[str, dict]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return {r["qid"]: r for r in rows}


def _interval(per_text: list[float], rng: random.Random, trials: int = 2000) -> str:
    """A 95% bootstrap interval over texts of a mean of per-text values."""
    means = sorted(
        sum(rng.choice(per_text) for _ in per_text) / len(per_text) for _ in range(trials)
    )
    return f"[{means[int(0.025 * trials)]:.2f}, {means[int(0.975 * trials) - 1]:.2f}]"


def report() -> None:
    """Per system and source: Useful, Invalid, well-formed, Useful per text (with a
    bootstrap interval over texts); calibration; κ."""
    from make_heldout_47 import held_out_texts
    from sklearn.metrics import cohen_kappa_score

    key = json.loads((OUT / "key.json").read_text())["items"]
    texts = held_out_texts()
    raters = [_labels(OUT / f"labels_{r}.jsonl") for r in "ab"]
    both = sorted(set(raters[0]) & set(raters[1]))
    print(f"{len(both)} questions rated by both raters, {len(texts)} texts")
    for name, f in (("Useful vs rest", lambda x: x["label"] == "Useful"),
                    ("three classes", lambda x: x["label"]),
                    ("well-formed", lambda x: bool(x["well_formed"]))):  # fmt: skip
        kappa = cohen_kappa_score([f(raters[0][q]) for q in both], [f(raters[1][q]) for q in both])
        print(f"kappa {name}: {kappa:.2f}")
    rng = random.Random(SEED)
    systems = ["reference-useful", "reference-invalid", "system-useful", "system-other",
               "before-47", *(f"{p}-{r}" for p in PARTS for r in ROUNDS)]  # fmt: skip
    for system in systems:
        ids = [q for q in both if system in key[q]["systems"]]
        for kind in ("all", "cqs", "focus", "qgeval"):
            chosen = [q for q in ids if kind == "all" or key[q]["source"] == kind]
            ids_texts = [t for t, v in texts.items() if kind == "all" or v["source"] == kind]
            if not chosen:
                continue

            def mean(f, chosen=chosen) -> float:
                return sum(f(r[q]) for r in raters for q in chosen) / (2 * len(chosen))

            useful = mean(lambda x: x["label"] == "Useful")
            per_text = [
                sum(r[q]["label"] == "Useful" for r in raters for q in chosen
                    if key[q]["text_id"] == t) / 2
                for t in ids_texts
            ]  # fmt: skip
            asked = sum(any(key[q]["text_id"] == t for q in chosen) for t in ids_texts)
            print(
                f"{system:18} {kind:6} n={len(chosen):3} texts asked {asked:2}/{len(ids_texts):2}"
                f"  Useful {useful:.2f}  Invalid {mean(lambda x: x['label'] == 'Invalid'):.2f}"
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
