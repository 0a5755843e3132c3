"""Which wording of the likelihood family strict raters prefer (issue 47, item 3): a
forecast asked back in its own words ("Would X really Y?") or the older "How likely is
it that X, and what could prevent it?", on development texts only.

    python benchmarks/rating/make_wording_47.py            # write r47w/items.json, key.json
    python benchmarks/rating/make_wording_47.py --report   # the figures, once rated

Every development text (``make_candidates_47.development_texts``, less the texts of the
third held-out rating, ``heldout_47c.json``) is read by the claims generator; for each
claim it asks back as a forecast, both wordings are rated (the "How likely" one where
it fits too), with the calibration items of ``make_candidates_47`` (CQs texts),
shuffled within each text under opaque ids. The rated items were written with the
generator of commit 53511e3; a later one (the order of the framings changed with this
rating's outcome, restatements were repaired) writes other items.
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
OUT = HERE / "r47w"
SEED = 47494
WORDINGS = ("consequence", "likelihood")


def make() -> None:
    """Both wordings for every forecast of the development texts, with calibration."""
    from make_candidates_47 import _calibration, _extended, development_texts, opaque_ids
    from make_heldout_47c import held_out_texts

    from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator

    held = set(held_out_texts())
    texts = {k: v for k, v in development_texts().items() if k not in held}
    generator, rng, extended = ClaimsCQGenerator(), random.Random(SEED), _extended()
    items, key, shown = [], {}, {}
    for text_id in sorted(texts):
        entry = texts[text_id]
        found = generator.questions_for(entry["text"])
        asked = {s.candidate.claim for s in found.candidates
                 if s.candidate.wording == "consequence"}  # fmt: skip
        pooled: dict[str, list[str]] = defaultdict(list)
        claim_of: dict[str, int] = {}
        for s in found.candidates:
            if s.candidate.claim in asked and s.candidate.wording in WORDINGS:
                pooled[s.candidate.question].append(s.candidate.wording)
                claim_of[s.candidate.question] = s.candidate.claim
        if not pooled:
            continue
        for question, source in _calibration(text_id, entry, rng, extended):
            pooled[question].append(source)
        shown[text_id] = {"kind": entry["kind"], "text": entry["text"]}
        for qid, question in opaque_ids(pooled, rng, prefix="w", start=len(items)):
            key[qid] = {"text_id": text_id, "source": entry["source"], "question": question,
                        "systems": pooled[question], "claim": claim_of.get(question)}  # fmt: skip
            items.append({"qid": qid, "text_id": text_id, "question": question})
    OUT.mkdir(exist_ok=True)
    (OUT / "items.json").write_text(
        json.dumps({"texts": shown, "questions": items}, indent=1, ensure_ascii=False)
    )
    (OUT / "key.json").write_text(json.dumps({"items": key}, indent=1, ensure_ascii=False))
    print(f"{len(items)} items over {len(shown)} texts")


def report() -> None:
    """Per wording and calibration source: Useful, Invalid, well-formed over both
    raters; κ; and the paired comparison on claims asked in both wordings."""
    from make_heldout_47b import _labels
    from sklearn.metrics import cohen_kappa_score

    key = json.loads((OUT / "key.json").read_text())["items"]
    raters = [_labels(OUT / f"labels_{r}.jsonl") for r in "ab"]
    both = sorted(set(raters[0]) & set(raters[1]))
    for name, f in (("Useful vs rest", lambda x: x["label"] == "Useful"),
                    ("well-formed", lambda x: bool(x["well_formed"]))):  # fmt: skip
        kappa = cohen_kappa_score([f(raters[0][q]) for q in both], [f(raters[1][q]) for q in both])
        print(f"{len(both)} questions; kappa {name}: {kappa:.2f}")
    for system in (*WORDINGS, "reference-useful", "reference-invalid"):
        ids = [q for q in both if system in key[q]["systems"]]
        if not ids:
            continue

        def mean(f, ids=ids) -> float:
            return sum(f(r[q]) for r in raters for q in ids) / (2 * len(ids))

        print(f"{system:18} n={len(ids):3}  Useful {mean(lambda x: x['label'] == 'Useful'):.2f}"
              f"  Invalid {mean(lambda x: x['label'] == 'Invalid'):.2f}"
              f"  well-formed {mean(lambda x: bool(x['well_formed'])):.2f}")  # fmt: skip
    # the same claim asked in both wordings: which one the raters put higher
    by_claim: dict[tuple, dict[str, str]] = defaultdict(dict)
    for q in both:
        for system in key[q]["systems"]:
            if system in WORDINGS:
                by_claim[(key[q]["text_id"], key[q]["claim"])][system] = q
    pairs = [v for v in by_claim.values() if len(v) == 2]
    rank = {"Useful": 2, "Unhelpful": 1, "Invalid": 0}

    def score(q: str) -> float:
        return sum(rank[r[q]["label"]] + bool(r[q]["well_formed"]) for r in raters)

    wins = sum(score(p["consequence"]) > score(p["likelihood"]) for p in pairs)
    losses = sum(score(p["consequence"]) < score(p["likelihood"]) for p in pairs)
    print(
        f"claims asked in both wordings: {len(pairs)}; the forecast asked back rated higher "
        f"on {wins}, lower on {losses}, level on {len(pairs) - wins - losses} (label rank "
        "Useful > Unhelpful > Invalid plus well-formed, summed over both raters)"
    )


def main() -> None:
    """Write the items, or report on the labels."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", action="store_true")
    args = parser.parse_args()
    report() if args.report else make()


if __name__ == "__main__":
    main()
