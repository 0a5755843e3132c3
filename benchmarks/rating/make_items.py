"""Build the blind-rating items for the 30 held-out CQs dev interventions.

    python benchmarks/rating/make_items.py

Systems compared (``key.json`` names them; the raters never see it):

- ``old-templates``: the template generator as it was before the claims generator
  (``old_templates.json``, generated before any change, kept as a file);
- ``old-selector``: the template generator with the selector trained on the template
  candidates of the other 102 dev interventions (``old_selector.json``, likewise);
- ``claims``: the claims generator, today's default (generated now);
- ``socratic``: ``ask``'s Socratic questions for the same texts (generated now);
- calibration: for each text, 2 reference questions people labelled Useful and 1
  labelled Invalid.

Exact duplicates are pooled (the key lists every system that produced the question);
each text's questions are shuffled with a fixed seed and given opaque ids. Writes
``items.json`` (for the raters: texts and questions only) and ``key.json``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2] / "shared" / "data" / "cqs" / "validation-dev.json"
SEED = 2026


def _submission(path: Path) -> dict[str, list[str]]:
    data = json.loads(path.read_text())
    return {k: [q["cq"] for q in v["cqs"]] if isinstance(v["cqs"], list) else []
            for k, v in data.items()}  # fmt: skip


def main() -> None:
    """Write items.json and key.json."""
    from maieutic.ask.pipeline import AskOptions, socratic_questions
    from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator

    data = json.loads(DATA.read_text())
    held = json.loads((HERE / "heldout_cqs.json").read_text())["heldout"]
    systems = {
        "old-templates": _submission(HERE / "old_templates.json"),
        "old-selector": _submission(HERE / "old_selector.json"),
    }
    generator = ClaimsCQGenerator()
    systems["claims"] = {
        k: generator.questions_for(data[k]["intervention"]).questions for k in held
    }
    opts = AskOptions()
    systems["socratic"] = {
        k: [q["question"] for q in socratic_questions(data[k]["intervention"], opts).questions]
        for k in held
    }
    rng = random.Random(SEED)
    items, key = [], {}
    n = 0
    for iid in held:
        pooled: dict[str, dict] = {}
        for name, by_text in systems.items():
            for question in by_text.get(iid, []):
                pooled.setdefault(question, {"systems": [], "reference_label": None})
                pooled[question]["systems"].append(name)
        refs = data[iid]["cqs"]
        useful = [r["cq"] for r in refs if r["label"] == "Useful"]
        invalid = [r["cq"] for r in refs if r["label"] == "Invalid"]
        calibration = [(q, "Useful") for q in rng.sample(useful, min(2, len(useful)))]
        calibration += [(q, "Invalid") for q in rng.sample(invalid, min(1, len(invalid)))]
        for question, label in calibration:
            pooled.setdefault(question, {"systems": [], "reference_label": None})
            pooled[question]["systems"].append(f"reference-{label.lower()}")
            pooled[question]["reference_label"] = label
        questions = list(pooled)
        rng.shuffle(questions)
        for question in questions:
            n += 1
            qid = f"x{rng.randrange(16**6):06x}{n:03d}"
            key[qid] = {"intervention_id": iid, "question": question, **pooled[question]}
            items.append({"qid": qid, "intervention_id": iid, "question": question})
    texts = {k: data[k]["intervention"] for k in held}
    (HERE / "items.json").write_text(
        json.dumps({"interventions": texts, "questions": items}, indent=1, ensure_ascii=False)
    )
    (HERE / "key.json").write_text(json.dumps(key, indent=1, ensure_ascii=False))
    counts = {name: sum(name in v["systems"] for v in key.values())
              for name in [*systems, "reference-useful", "reference-invalid"]}  # fmt: skip
    print(f"{len(items)} items over {len(held)} texts: {counts}")


if __name__ == "__main__":
    main()
