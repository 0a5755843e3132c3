"""Candidates for strict labels (issue 47): the default generator's over-generation on
development texts, in batches for pairs of blind raters.

    python benchmarks/rating/make_candidates_47.py            # write r47/batch_*/items.json
    python benchmarks/rating/make_candidates_47.py --report   # calibration and agreement

The texts the blind rating measures on (``heldout_47.json``) were fixed before this
script ran and are never among the candidates. From the rest — the CQs validation and
test development interventions, the FOCUS development arguments and the QGEval
development passages — every text is read by the claims generator
(``ClaimsCQGenerator.questions_for``: every claim in every framing that fits); a text
it finds nothing in is left out, and of the others up to ``PER_TEXT`` candidates are
kept: the three the generator
chooses, then the rest drawn so that every claim and every framing family is seen,
candidates the well-formedness check flags included (a share of them, so that the
check can be calibrated against people).

Each batch holds a quarter of the texts with their candidates and the calibration
items (for a CQs text, 2 of its reference questions people labelled Useful and 1
labelled Invalid; for a test-dev text also 1 system question people labelled Useful and
1 they labelled otherwise), shuffled within each text under opaque ids. The key
(``r47/key.json``: id → text, source, claim, framing, flaws, rank) is never shown to a
rater. Labels come back as ``r47/batch_N/labels_{a,b}.jsonl``.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "r47"
SHARED = HERE.parents[2] / "shared" / "data"
SEED = 4748
PER_TEXT = 8
"""Candidates kept per text (every text the generator finds a claim in is used)."""
FLAGGED_SHARE = 0.25
"""The largest share of a text's kept candidates that the well-formedness check flags."""
BATCHES = 4


def _held_out() -> dict[str, set]:
    plan = json.loads((HERE / "heldout_47.json").read_text())
    return {
        "cqs": set(plan["cqs_test_dev"]) | set(plan["cqs_validation_dev"]),
        "focus": {str(i) for i in plan["focus_dev_gold_rows"]},
        "qgeval": {str(i) for i in plan["qgeval_dev_indices"]},
    }


def development_texts() -> dict[str, dict]:
    """Every development text not held out, by id: ``{"source", "kind", "text"}``."""
    held = _held_out()
    texts: dict[str, dict] = {}
    for file in ("validation-dev.json", "test-dev.json"):
        for key, item in json.loads((SHARED / "cqs" / file).read_text()).items():
            if key not in held["cqs"]:
                texts[key] = {"source": "cqs", "kind": "debate", "file": file,
                              "text": item["intervention"]}  # fmt: skip
    with (SHARED / "focus" / "dev_gold.csv").open(newline="", encoding="utf-8") as handle:
        for index, row in enumerate(csv.DictReader(handle)):
            if str(index) not in held["focus"]:
                texts[f"focus-{index}"] = {"source": "focus", "kind": "essay",
                                           "text": row["Argument"]}  # fmt: skip
    passages = json.loads((SHARED / "qgeval" / "instances-dev.json").read_text())
    for index, passage in enumerate(passages):
        if str(index) not in held["qgeval"]:
            texts[f"qgeval-{index}"] = {"source": "qgeval", "kind": "passage",
                                        "text": passage["passage"]}  # fmt: skip
    return texts


def _keep(found, limit: int, rng: random.Random) -> list[tuple[int, object]]:
    """(rank or -1, scored candidate): the chosen three, then a spread of the rest."""
    chosen = {q: i for i, q in enumerate(found.questions)}
    kept = [(chosen[s.candidate.question], s) for s in found.candidates
            if s.candidate.question in chosen]  # fmt: skip
    seen_q = {s.candidate.question for _, s in kept}
    rest = [s for s in found.candidates if s.candidate.question not in seen_q]
    rng.shuffle(rest)
    flagged_cap = max(1, round(limit * FLAGGED_SHARE))
    # first pass: a new claim or a new framing family; second: anything
    for strict in (True, False):
        for s in rest:
            if len(kept) >= limit:
                break
            if s.candidate.question in seen_q:
                continue
            if s.flaws and sum(bool(k.flaws) for _, k in kept) >= flagged_cap:
                continue
            claims = {k.candidate.claim for _, k in kept}
            families = {k.candidate.framing for _, k in kept}
            if strict and s.candidate.claim in claims and s.candidate.framing in families:
                continue
            kept.append((-1, s))
            seen_q.add(s.candidate.question)
    return kept


def _calibration(text_id: str, entry: dict, rng: random.Random, extended) -> list[tuple]:
    if entry["source"] != "cqs":
        return []
    refs = json.loads((SHARED / "cqs" / entry["file"]).read_text())[text_id]["cqs"]
    useful = [r["cq"] for r in refs if r["label"] == "Useful"]
    invalid = [r["cq"] for r in refs if r["label"] == "Invalid"]
    out = [(q, "reference-useful") for q in rng.sample(useful, min(2, len(useful)))]
    out += [(q, "reference-invalid") for q in rng.sample(invalid, min(1, len(invalid)))]
    if text_id in extended:
        outputs = extended[text_id]
        good = [o.cq for o in outputs if o.label == "Useful"]
        bad = [o.cq for o in outputs if o.label != "Useful"]
        out += [(q, "system-useful") for q in rng.sample(good, min(1, len(good)))]
        out += [(q, "system-other") for q in rng.sample(bad, min(1, len(bad)))]
    return out


def opaque_ids(pooled, rng: random.Random, *, prefix: str, start: int) -> list[tuple[str, str]]:
    """A text's pooled questions shuffled, each with an opaque id (``prefix``, six random
    hex digits, then its running number after ``start``): no id tells where it came from."""
    questions = list(pooled)
    rng.shuffle(questions)
    return [
        (f"{prefix}{rng.randrange(16**6):06x}{n:03d}", question)
        for n, question in enumerate(questions, start=start + 1)
    ]


def _extended() -> dict:
    from maieutic.tasks.cqs.data import load_cq_dataset
    from maieutic.tasks.cqs.labelled_outputs import load_labelled_outputs

    dataset = load_cq_dataset(SHARED / "cqs" / "test-dev.json")
    outputs = load_labelled_outputs(SHARED / "cqs" / "extended_test-dev.json", dataset)
    return outputs.by_intervention()


def make() -> None:
    """Over-generate, keep, pool with calibration, shuffle and write the batches."""
    from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator

    texts = development_texts()
    rng = random.Random(SEED)
    generator, extended = ClaimsCQGenerator(), _extended()
    found_in = {k: generator.questions_for(v["text"]) for k, v in sorted(texts.items())}
    order = sorted(k for k, found in found_in.items() if found.candidates)
    rng.shuffle(order)
    key, batches, n = {}, defaultdict(list), 0
    for position, text_id in enumerate(order):
        entry, found = texts[text_id], found_in[text_id]
        pooled: dict[str, dict] = {}
        for rank, s in _keep(found, PER_TEXT, rng):
            claim = found.reading.claims[s.candidate.claim] if s.candidate.claim >= 0 else None
            pooled[s.candidate.question] = {
                "sources": ["claims-candidate"], "rank": rank, "framing": s.candidate.framing,
                "wording": s.candidate.wording, "claim": claim.text if claim else None,
                "claim_kinds": list(claim.kinds) if claim else [], "flaws": list(s.flaws),
                "score": s.score,
            }  # fmt: skip
        for question, source in _calibration(text_id, entry, rng, extended):
            pooled.setdefault(question, {"sources": []})["sources"].append(source)
        questions = list(pooled)
        rng.shuffle(questions)
        batch = position % BATCHES
        for question in questions:
            n += 1
            qid = f"q{rng.randrange(16**6):06x}{n:04d}"
            key[qid] = {"text_id": text_id, "source": entry["source"], "batch": batch,
                        "question": question, **pooled[question]}  # fmt: skip
            batches[batch].append({"qid": qid, "text_id": text_id, "question": question})
    for batch, items in sorted(batches.items()):
        folder = OUT / f"batch_{batch}"
        folder.mkdir(parents=True, exist_ok=True)
        ids = {i["text_id"] for i in items}
        shown = {k: {"kind": texts[k]["kind"], "text": texts[k]["text"]} for k in order if k in ids}
        (folder / "items.json").write_text(
            json.dumps({"texts": shown, "questions": items}, indent=1, ensure_ascii=False)
        )
    (OUT / "key.json").write_text(json.dumps(key, indent=1, ensure_ascii=False))
    kinds = Counter(s for v in key.values() for s in v["sources"])
    print(f"{len(key)} items over {len(order)} texts (of {len(texts)}) in {BATCHES} batches: "
          f"{dict(kinds)}")  # fmt: skip
    flagged = sum(bool(v.get("flaws")) for v in key.values())
    print(f"candidates the well-formedness check flags: {flagged}")


def _labels(path: Path) -> dict[str, dict]:
    out = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            out[row["qid"]] = row
    return out


def report() -> None:
    """Per batch and in all: calibration of each rater and Cohen's κ between them."""
    from sklearn.metrics import cohen_kappa_score

    key = json.loads((OUT / "key.json").read_text())
    for folder in sorted(OUT.glob("batch_*")):
        raters = {r: _labels(folder / f"labels_{r}.jsonl") for r in "ab"
                  if (folder / f"labels_{r}.jsonl").exists()}  # fmt: skip
        print(f"{folder.name}: " + ", ".join(f"{r} {len(v)} labels" for r, v in raters.items()))
        for r, labels in raters.items():
            for source in ("reference-useful", "reference-invalid", "system-useful",
                           "system-other", "claims-candidate"):  # fmt: skip
                ids = [q for q in labels if source in key[q]["sources"]]
                if ids:
                    useful = sum(labels[q]["label"] == "Useful" for q in ids) / len(ids)
                    print(f"  {r} {source}: Useful {useful:.2f} (n={len(ids)})")
        if len(raters) == 2:
            both = sorted(set(raters["a"]) & set(raters["b"]))
            for name, f in (("Useful vs rest", lambda x: x["label"] == "Useful"),
                            ("three classes", lambda x: x["label"]),
                            ("well-formed", lambda x: bool(x["well_formed"]))):  # fmt: skip
                a = [f(raters["a"][q]) for q in both]
                b = [f(raters["b"][q]) for q in both]
                print(f"  kappa {name}: {cohen_kappa_score(a, b):.2f} (n={len(both)})")


WELLFORMED_CHOSEN = (0, 1, 2)
"""The batches the well-formedness checks of issue 47 were chosen on; batch 3 measures."""


def wellformed_kappa() -> None:
    """Cohen's κ of the well-formedness check against the raters (well formed to both),
    the check as the candidates were made (their stored flaws) and as it is now, on the
    batches the new checks were chosen on and on the one held out."""
    from sklearn.metrics import cohen_kappa_score

    from maieutic.language.wellformed import check_question

    key = json.loads((OUT / "key.json").read_text())
    texts = development_texts()
    raters = {r: {} for r in "ab"}
    for folder in sorted(OUT.glob("batch_*")):
        for r in "ab":
            raters[r].update(_labels(folder / f"labels_{r}.jsonl"))
    for part, batches in (("chosen on", WELLFORMED_CHOSEN), ("held out", (3,))):
        ids = [q for q, e in key.items() if "claims-candidate" in e["sources"]
               and e["batch"] in batches and q in raters["a"] and q in raters["b"]]  # fmt: skip
        people = [raters["a"][q]["well_formed"] and raters["b"][q]["well_formed"] for q in ids]
        before = [not key[q]["flaws"] for q in ids]
        now = [not check_question(key[q]["question"], texts[key[q]["text_id"]]["text"])
               for q in ids]  # fmt: skip
        print(f"batches {list(batches)} ({part}, n={len(ids)}): people pass "
              f"{sum(people) / len(ids):.2f}; check before passes {sum(before) / len(ids):.2f}, "
              f"kappa {cohen_kappa_score(before, people):.2f}; now passes "
              f"{sum(now) / len(ids):.2f}, kappa {cohen_kappa_score(now, people):.2f}")  # fmt: skip


def main() -> None:
    """Write the batches, or report on the labels that came back."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", action="store_true", help="calibration and agreement")
    parser.add_argument("--wellformed-kappa", action="store_true",
                        help="the well-formedness check against the raters")  # fmt: skip
    args = parser.parse_args()
    if args.report:
        report()
    elif args.wellformed_kappa:
        wellformed_kappa()
    else:
        make()


if __name__ == "__main__":
    main()
