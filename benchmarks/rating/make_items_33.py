"""Build the blind-rating items of issue 33 (held-out debate texts and essay paragraphs).

    python benchmarks/rating/make_items_33.py --generate OUT.json   # one version's questions
    python benchmarks/rating/make_items_33.py                       # pool, shuffle, write

The texts were fixed before any change was built (``heldout_33.json``): the 30 CQs
validation-dev interventions held out since issue 20, 10 FOCUS dev arguments and 10
QGEval dev passages. No part of maieutic was tuned on them.

``--generate`` writes the questions of the maieutic that Python imports (the claims
generator behind ``generate cqs`` and ``ask``'s Socratic questions) for every text; run
it with ``PYTHONPATH`` pointing at an older checkout to rate an older version beside
today's. Without it, the script pools the generated files named in ``SYSTEMS`` with the
calibration items (for each CQs text 2 reference questions people labelled Useful and 1
labelled Invalid; for each FOCUS argument its gold Socratic question, shown as a point
of comparison, not calibration), drops exact duplicates (the key lists every source),
shuffles within each text with a fixed seed, gives opaque ids and writes
``r33/items.json`` (for the raters: texts and questions only) and ``r33/key.json``.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "r33"
SHARED = HERE.parents[2] / "shared" / "data"
SEED = 3333
SYSTEMS = {
    # rated system -> (generated file, which list in it)
    "claims": ("now.json", "claims"),
    "socratic": ("now.json", "socratic"),
    "claims-before": ("before.json", "claims"),
}


def held_out_texts() -> dict[str, dict]:
    """Every held-out text by id: ``{"kind", "text"}`` (and the FOCUS gold questions)."""
    plan = json.loads((HERE / "heldout_33.json").read_text())
    cqs = json.loads((SHARED / "cqs" / "validation-dev.json").read_text())
    held = json.loads((HERE / "heldout_cqs.json").read_text())["heldout"]
    texts = {k: {"kind": "debate", "text": cqs[k]["intervention"]} for k in held}
    with (SHARED / "focus" / "dev_gold.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    for index in plan["focus_dev_gold_rows"]:
        row = rows[index]
        gold = [row[c] for c in ("FSQQuestion1_Corrected", "FSQQuestion2_Corrected") if row[c]]
        texts[f"focus-{index}"] = {"kind": "essay", "text": row["Argument"], "gold": gold}
    passages = json.loads((SHARED / "qgeval" / "instances-dev.json").read_text())
    for index in plan["qgeval_dev_indices"]:
        texts[f"qgeval-{index}"] = {"kind": "essay", "text": passages[index]["passage"]}
    return texts


def generate(path: Path) -> None:
    """Write the importable maieutic's claims and Socratic questions for every text."""
    from maieutic.ask.options import AskOptions
    from maieutic.ask.socratic import socratic_questions
    from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator

    generator, options = ClaimsCQGenerator(), AskOptions()
    out: dict[str, dict] = {"claims": {}, "socratic": {}}
    for key, entry in held_out_texts().items():
        out["claims"][key] = generator.questions_for(entry["text"]).questions
        socratic = socratic_questions(entry["text"], options).questions
        out["socratic"][key] = [q["question"] for q in socratic]
    path.write_text(json.dumps(out, indent=1, ensure_ascii=False))


def _calibration(key: str, entry: dict, cqs: dict, rng: random.Random) -> list[tuple[str, str]]:
    if entry["kind"] == "debate":
        refs = cqs[key]["cqs"]
        useful = [r["cq"] for r in refs if r["label"] == "Useful"]
        invalid = [r["cq"] for r in refs if r["label"] == "Invalid"]
        picked = [(q, "reference-useful") for q in rng.sample(useful, min(2, len(useful)))]
        return picked + [
            (q, "reference-invalid") for q in rng.sample(invalid, min(1, len(invalid)))
        ]
    return [(q, "focus-gold") for q in entry.get("gold", [])]


def pool() -> None:
    """Pool every system's questions with the calibration items; write items and key."""
    texts = held_out_texts()
    cqs = json.loads((SHARED / "cqs" / "validation-dev.json").read_text())
    generated = {
        name: json.loads((OUT / name).read_text()) for name in {f for f, _ in SYSTEMS.values()}
    }
    rng = random.Random(SEED)
    items, key, n = [], {}, 0
    for text_id, entry in texts.items():
        pooled: dict[str, list[str]] = {}
        for system, (file, part) in SYSTEMS.items():
            for question in generated[file][part].get(text_id, []):
                pooled.setdefault(question, []).append(system)
        for question, source in _calibration(text_id, entry, cqs, rng):
            pooled.setdefault(question, []).append(source)
        questions = list(pooled)
        rng.shuffle(questions)
        for question in questions:
            n += 1
            qid = f"q{rng.randrange(16**6):06x}{n:03d}"
            key[qid] = {"text_id": text_id, "kind": entry["kind"], "question": question,
                        "systems": pooled[question]}  # fmt: skip
            items.append({"qid": qid, "text_id": text_id, "question": question})
    for_raters = {k: {"kind": v["kind"], "text": v["text"]} for k, v in texts.items()}
    (OUT / "items.json").write_text(
        json.dumps({"texts": for_raters, "questions": items}, indent=1, ensure_ascii=False)
    )
    (OUT / "key.json").write_text(json.dumps(key, indent=1, ensure_ascii=False))
    sources = sorted({s for v in key.values() for s in v["systems"]})
    counts = {s: sum(s in v["systems"] for v in key.values()) for s in sources}
    print(f"{len(items)} items over {len(texts)} texts: {counts}")


def main() -> None:
    """Generate one version's questions, or pool them into the rating items."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generate", type=Path, help="write this maieutic's questions here")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    if args.generate:
        generate(args.generate)
    else:
        pool()


if __name__ == "__main__":
    main()
