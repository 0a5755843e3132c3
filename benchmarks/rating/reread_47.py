"""Which rated development candidates the claim reader now reads otherwise, and how the
raters had judged them (issue 47: the restatement repairs).

    python benchmarks/rating/reread_47.py

For every candidate of ``r47`` rated by both raters, its claim is looked for among the
claims the current reader finds in its text (case aside). Those no longer found are
counted with their labels, and their claims listed: a repair should take away claims the
raters found ill-formed, not ones they passed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main() -> None:
    """Count and list the rated candidates whose claim is no longer read as it was."""
    from make_candidates_47 import OUT, _labels, development_texts

    from maieutic.language.claims import read_claims

    key = json.loads((OUT / "key.json").read_text())
    texts = development_texts()
    raters = {r: {} for r in "ab"}
    for folder in sorted(OUT.glob("batch_*")):
        for r in "ab":
            raters[r].update(_labels(folder / f"labels_{r}.jsonl"))
    now: dict[str, set[str]] = {}
    groups: dict[str, list[str]] = {"read otherwise": [], "read as before": []}
    for qid, entry in key.items():
        rated = qid in raters["a"] and qid in raters["b"]
        if "claims-candidate" not in entry["sources"] or not rated or not entry["claim"]:
            continue
        text_id = entry["text_id"]
        if text_id not in now:
            claims = read_claims(texts[text_id]["text"]).claims
            now[text_id] = {c.text.lower() for c in claims}
        same = entry["claim"].lower() in now[text_id]
        groups["read as before" if same else "read otherwise"].append(qid)
    for name, ids in groups.items():
        labels = [raters[r][q] for q in ids for r in "ab"]
        useful = sum(x["label"] == "Useful" for x in labels) / max(1, len(labels))
        formed = sum(bool(x["well_formed"]) for x in labels) / max(1, len(labels))
        claims = {key[q]["claim"] for q in ids}
        print(f"{name}: {len(ids)} candidates ({len(claims)} claims), rated Useful "
              f"{useful:.2f}, well-formed {formed:.2f}")  # fmt: skip
    for claim in sorted({key[q]["claim"] for q in groups["read otherwise"]}):
        print(f"  {claim[:110]}")


if __name__ == "__main__":
    main()
