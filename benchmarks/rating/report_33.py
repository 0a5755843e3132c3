"""Report the blind rating of issue 33 (``make_items_33.py`` built the items).

    python benchmarks/rating/report_33.py [--raters a b]   # round 2: --raters c d

Reads ``r33/key.json`` and two raters' labels (``r33/labels_a.jsonl`` and
``r33/labels_b.jsonl`` for the first round, ``c`` and ``d`` for the second) and
prints: Cohen's kappa between the raters; calibration (the share of the benchmark's
reference questions labelled Useful / Invalid that each rater rated Useful); then, for
the debate texts and the essay paragraphs apart, per system the Useful, Invalid and
well-formed rates over both raters' labels (n = labels, two per question), the share of
texts given three questions, and on the debate texts the STS score at 0.6 (embedded
MiniLM) against the released references. The essay paragraphs have no
critical-question references, so they have no STS.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import defaultdict
from pathlib import Path

from make_items_33 import held_out_texts
from report import _labels, kappas

HERE = Path(__file__).resolve().parent
OUT = HERE / "r33"
DATA = HERE.parents[2] / "shared" / "data" / "cqs" / "validation-dev.json"
ROWS = ("claims", "claims-before", "socratic", "reference-useful", "reference-invalid",
        "focus-gold")  # fmt: skip


def calibration(key: dict, rater: dict) -> tuple[float, float]:
    """The share of reference-Useful and of reference-Invalid items rated Useful."""
    shares = []
    for source in ("reference-useful", "reference-invalid"):
        qids = [q for q, v in key.items() if source in v["systems"] and q in rater]
        shares.append(sum(rater[q]["label"] == "Useful" for q in qids) / max(len(qids), 1))
    return shares[0], shares[1]


def rates(key: dict, raters: list[dict], kind: str) -> dict[str, dict]:
    """Useful, Invalid and well-formed counts per system over both raters' labels."""
    out: dict[str, dict] = defaultdict(lambda: {"n": 0, "Useful": 0, "Invalid": 0, "wf": 0})
    for qid, entry in key.items():
        if entry["kind"] != kind:
            continue
        for rater in raters:
            if qid not in rater:
                continue
            for system in entry["systems"]:
                row = out[system]
                row["n"] += 1
                row["Useful"] += rater[qid]["label"] == "Useful"
                row["Invalid"] += rater[qid]["label"] == "Invalid"
                row["wf"] += bool(rater[qid]["well_formed"])
    return out


def coverage(key: dict, kind: str) -> dict[str, str]:
    """Per generated system: texts with three questions, and texts with none (every
    held-out text, including one that no source wrote a question for)."""
    generated = {
        "claims": json.loads((OUT / "now.json").read_text())["claims"],
        "socratic": json.loads((OUT / "now.json").read_text())["socratic"],
        "claims-before": json.loads((OUT / "before.json").read_text())["claims"],
    }
    texts = {k for k, v in held_out_texts().items() if v["kind"] == kind}
    out = {}
    for system, by_text in generated.items():
        counts = [len(by_text.get(t, [])) for t in texts]
        out[system] = f"{sum(c >= 3 for c in counts)}/{len(texts)} (none {counts.count(0)})"
    return out


def sts(key: dict) -> dict[str, float]:
    """STS at 0.6 per generated system on the debate texts."""
    from maieutic.registry import create
    from maieutic.tasks.cqs.data import load_cq_dataset, load_submission

    data = json.loads(DATA.read_text())
    held = sorted({v["text_id"] for v in key.values() if v["kind"] == "debate"})
    generated = {
        "claims": json.loads((OUT / "now.json").read_text())["claims"],
        "claims-before": json.loads((OUT / "before.json").read_text())["claims"],
    }
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        refs = Path(tmp) / "refs.json"
        refs.write_text(json.dumps({k: data[k] for k in held}))
        dataset = load_cq_dataset(refs)
        for system, by_text in generated.items():
            sub = {k: {"intervention_id": k, "cqs": [{"id": str(i), "cq": q}
                                                     for i, q in enumerate(by_text[k])]}
                   for k in held}  # fmt: skip
            path = Path(tmp) / f"{system}.json"
            path.write_text(json.dumps(sub))
            [result] = create("evaluator", task="cqs", name="sts").evaluate(
                dataset, [load_submission(path)]
            )
            out[system] = result.score
    return out


def main() -> None:
    """Print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--raters", nargs=2, default=["a", "b"], help="label files r33/labels_X.jsonl"
    )
    first, second = parser.parse_args().raters
    key = json.loads((OUT / "key.json").read_text())
    a, b = _labels(OUT / f"labels_{first}.jsonl"), _labels(OUT / f"labels_{second}.jsonl")
    k = kappas(a, b)
    print(
        f"raters: {k['n']} of {len(key)} items labelled by both; Cohen's kappa Useful-vs-rest "
        f"{k['useful_vs_rest']:.2f}, three classes {k['three_classes']:.2f}, well-formed "
        f"{k['well_formed']:.2f}"
    )
    for name, rater in ((first, a), (second, b)):
        useful, invalid = calibration(key, rater)
        print(
            f"calibration rater {name}: reference-Useful rated Useful {useful:.2f}, "
            f"reference-Invalid rated Useful {invalid:.2f}"
        )
    scores = sts(key)
    for kind in ("debate", "essay"):
        rows, cover = rates(key, [a, b], kind), coverage(key, kind)
        print(f"\n{kind} texts")
        print(f"{'system':18s} {'n':>4s} {'Useful':>7s} {'Invalid':>8s} {'well-formed':>11s} "
              f"{'3 questions':>16s} {'Useful/text':>11s} {'STS@0.6':>8s}")  # fmt: skip
        n_texts = sum(v["kind"] == kind for v in held_out_texts().values())
        for system in ROWS:
            row = rows.get(system)
            if not row or not row["n"]:
                continue
            n = row["n"]
            score = f"{scores[system]:.3f}" if kind == "debate" and system in scores else "—"
            # Useful questions a text gets: both raters' Useful labels / 2, over the texts
            per_text = f"{row['Useful'] / 2 / n_texts:.2f}" if system in cover else "—"
            print(
                f"{system:18s} {n:4d} {row['Useful'] / n:7.2f} {row['Invalid'] / n:8.2f} "
                f"{row['wf'] / n:11.2f} {cover.get(system, '—'):>16s} {per_text:>11s} "
                f"{score:>8s}"
            )
    print("\n(n: labels, two per question; calibration rows are the reference questions)")


if __name__ == "__main__":
    main()
