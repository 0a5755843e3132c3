"""FOCUS figures on the released development split (../shared/data/focus).

Prints, for the released GPT-4 and GPT-3.5 predictions, the model-free cue baseline and
any prediction files given on the command line (e.g. SmolLM2 runs of
``maieutic generate focus --generator llm``): macro- and micro-F1 in both modes, with
and without the None class, and span Jaccard (type pairing; positional pairing against
the gold and against every annotator, the paper's Table 6); then annotator agreement
per type beside the paper's development figures; then timings.

    python benchmarks/bench_focus.py [PREDICTIONS.jsonl|csv ...]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from maieutic.registry import create
from maieutic.tasks.focus.annotation_agreement import type_agreement
from maieutic.tasks.focus.annotators import attach_annotators
from maieutic.tasks.focus.data import load_gold, load_predictions
from maieutic.tasks.focus.evaluate import FocusEvaluator
from maieutic.tasks.focus.generate import to_prediction_set

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "focus"

# "FOCUS: A Benchmark for Targeted Socratic Question Generation via Source-Span
# Grounding", Tables 2 and 3 (development set)
PAPER_OBSERVED = {
    "OSP": 0.704,
    "TC": 0.686,
    "IE": 0.686,
    "BS": 0.834,
    "VAT": 0.723,
    "OG": 0.815,
    "QCE": 0.852,
    "CF": 0.908,
    "LE": 0.815,
    "WE": 0.815,
}
PAPER_FLEISS = {
    "OSP": -0.143,
    "TC": 0.072,
    "IE": 0.157,
    "BS": 0.518,
    "VAT": 0.258,
    "OG": 0.313,
    "QCE": 0.501,
    "CF": 0.325,
    "LE": 0.421,
    "WE": 0.489,
}
PAPER_JACCARD = {
    "OSP": 0.605,
    "TC": 0.511,
    "IE": 0.521,
    "BS": 0.501,
    "VAT": 0.512,
    "OG": 0.604,
    "QCE": 0.674,
    "CF": 1.000,
    "LE": 0.597,
    "WE": 0.539,
}


def _f1(result, mode, none, average):
    return result.summary["classification"][mode][none][average]["f1"]


def main(extra: list[str]) -> None:
    if not (DATA / "dev_gold.csv").exists():
        sys.exit(f"shared data not found at {DATA}")
    gold = attach_annotators(load_gold(DATA / "dev_gold.csv"), [DATA])
    started = time.perf_counter()
    run = create("generator", task="focus", name="cues").generate(gold)
    cue_seconds = time.perf_counter() - started
    systems = {
        "GPT-4 (released)": load_predictions(DATA / "dev_pred_gpt4.csv"),
        "GPT-3.5 (released)": load_predictions(DATA / "dev_pred_gpt35.csv"),
        "cues (model-free)": to_prediction_set(run.outcomes, gold, "cues"),
        "cues, categories ignored": to_prediction_set(
            create("generator", task="focus", name="cues", use_categories=False)
            .generate(gold)
            .outcomes,
            gold,
            "cues-open",
        ),
    }
    for path in extra:
        systems[Path(path).stem] = load_predictions(path)
    by_type = FocusEvaluator("category", pairing="type")
    positional = FocusEvaluator("category", pairing="positional")
    started = time.perf_counter()
    typed = by_type.evaluate(gold, list(systems.values()))
    evaluate_seconds = time.perf_counter() - started
    placed = positional.evaluate(gold, list(systems.values()))
    print(
        "| system | macro-F1 cat | micro-F1 cat | macro-F1 cat −None | macro-F1 open | "
        "micro-F1 open | Jaccard (type) | Jaccard gold (pos.) | Jaccard all (pos.) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, a, b in zip(systems, typed, placed, strict=True):
        print(
            f"| {name} | {_f1(a, 'category', 'with_none', 'macro'):.4f} | "
            f"{_f1(a, 'category', 'with_none', 'micro'):.4f} | "
            f"{_f1(a, 'category', 'without_none', 'macro'):.4f} | "
            f"{_f1(a, 'open', 'with_none', 'macro'):.4f} | "
            f"{_f1(a, 'open', 'with_none', 'micro'):.4f} | "
            f"{a.summary['spans']['jaccard']['mean']:.3f} | "
            f"{b.summary['spans']['jaccard']['mean']:.3f} | "
            f"{b.summary['spans_all']['jaccard']['mean']:.3f} |"
        )
    print(
        "\n| type | observed (paper) | Fleiss κ (paper) | PABAK | span Jaccard (paper) | ROUGE-L |"
    )
    print("|---|---|---|---|---|---|")
    for type_id, row in type_agreement(list(gold.items.values())).items():
        print(
            f"| {type_id} | {row.observed:.3f} ({PAPER_OBSERVED[type_id]:.3f}) | "
            f"{row.fleiss:.3f} ({PAPER_FLEISS[type_id]:.3f}) | {row.pabak:.3f} | "
            f"{row.spans['jaccard']:.3f} ({PAPER_JACCARD[type_id]:.3f}) | "
            f"{row.spans['rouge_l']:.3f} |"
        )
    print(
        f"\ncue baseline over 140 arguments: {cue_seconds:.2f} s; "
        f"evaluating {len(systems)} systems (no embedding score): {evaluate_seconds:.2f} s"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
