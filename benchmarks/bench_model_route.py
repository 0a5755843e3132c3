"""What the model route of ``ask --llm`` / ``generate cqs --generator model-first`` shows
with the embedded SmolLM2-135M (the weak end; ``bench_replay.py`` is the strong end),
through llama.cpp's real OpenAI-compatible server, on held-out texts.

    python benchmarks/bench_model_route.py [--candidates 3] [--out FILE.json]

Starts llama.cpp's server with the embedded SmolLM2 on a free loopback port
(``maieutic.llm.server.LocalServer``, needs ``maieutic setup-llm --llamacpp``) and runs,
on the 40 CQs interventions of ``replay/heldout_58.json`` and the 12 FOCUS arguments of
``rating/heldout_47c.json`` (no choice of the route was made on any of them):

- ``offline``: the claims generator alone — what ``ask`` shows without ``--llm``, and
  what ``ask --llm embedded`` shows too: SmolLM2 is measured to write worse questions
  than the rules, so the route's ``auto`` order does not ask it (``order:offline``);
- ``offline-first``: the rules' questions first, SmolLM2's usable ones only in the slots
  they leave empty — the order ``auto`` had for SmolLM2 when this was first measured,
  retired after the blind rating (``replay/make_rating_58.py``: those questions were
  rated Invalid 0.97, Useful 0.00);
- ``model-first``: the order forced (``--order model-first``): SmolLM2's usable
  questions first.

Prints per route: questions shown, texts with three and with any, the model's share,
any shown question with a hard flaw or about nothing in the text (none may be), and
the CPU milliseconds per text the choice itself takes (beyond the model's calls);
``--out`` keeps every text's questions for a blind rating.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared" / "data"


def held_out_texts() -> dict[str, dict]:
    """The held-out texts by id: ``{"source", "text"}``."""
    plan = json.loads((HERE / "replay" / "heldout_58.json").read_text())
    texts: dict[str, dict] = {}
    for file, ids in (("test-dev.json", plan["cqs_test_dev"]),
                      ("validation-dev.json", plan["cqs_validation_dev"])):  # fmt: skip
        data = json.loads((SHARED / "cqs" / file).read_text())
        texts.update({k: {"source": "debate", "text": data[k]["intervention"]} for k in ids})
    essays = json.loads((HERE / "rating" / "heldout_47c.json").read_text())["focus_dev_gold_rows"]
    with (SHARED / "focus" / "dev_gold.csv").open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    texts.update({f"focus-{i}": {"source": "essay", "text": rows[i]["Argument"]} for i in essays})
    return texts


def _choice(generator, dataset, outcome, order: str):
    """The route's choice in ``order``: the generator's own for ``model-first``; for
    ``offline-first`` the rules' questions, then the model's usable ones in the slots
    left (the retired order, kept here so its rating can be made again)."""
    from maieutic.tasks.cqs.model_first import MODEL, Kept, ModelFirstChoice, near_repeat

    choice = generator.choice(dataset, outcome)
    if order == "model-first":
        return choice
    item = dataset.interventions[outcome.intervention_id]
    found = generator.claims.questions_for(item.intervention)
    kept = [Kept(question=q, written_by="claims") for q in found.questions]
    for question in choice.usable.questions:
        if len(kept) < 3 and near_repeat(question, [k.question for k in kept]) is None:
            kept.append(Kept(question=question, written_by=MODEL))
    return ModelFirstChoice(kept=kept, usable=choice.usable, note=None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--candidates", type=int, default=3, help="samples per text (ask's)")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    os.environ.setdefault("MAIEUTIC_HOME", tempfile.mkdtemp(prefix="maieutic-home-"))
    from maieutic.llm.server import SERVED_MODEL_NAME, LocalServer
    from maieutic.registry import create
    from maieutic.tasks.cqs.api import CQDataset, Intervention
    from maieutic.tasks.cqs.model_first import MODEL, hard_flaws, stems

    texts = held_out_texts()
    dataset = CQDataset(
        interventions={
            k: Intervention(intervention_id=k, intervention=v["text"]) for k, v in texts.items()
        },
        source="<held out>",
    )
    claims = create("generator", task="cqs", name="claims")
    counts: dict[str, Counter] = {}
    kept = {k: {"source": v["source"], "text": v["text"]} for k, v in texts.items()}
    for key, found in ((k, claims.questions_for(v["text"])) for k, v in texts.items()):
        kept[key]["offline"] = [{"question": q, "written_by": "claims"} for q in found.questions]
    server = LocalServer().start()
    try:
        generator = create(
            "generator", task="cqs", name="model-first", llm=SERVED_MODEL_NAME,
            base_url=server.base_url, candidates=args.candidates, order="model-first",
        )  # fmt: skip
        start = time.perf_counter()
        run = generator.model.generate(dataset, on_progress=lambda *_: None)
        model_seconds = time.perf_counter() - start
        for name in ("offline-first", "model-first"):
            cpu = time.process_time()
            choices = {
                o.intervention_id: _choice(generator, dataset, o, name) for o in run.outcomes
            }
            cpu = time.process_time() - cpu
            by_id = {o.intervention_id: o for o in run.outcomes}
            for key, choice in choices.items():
                text = texts[key]["text"]
                kept[key][name] = [
                    {"question": k.question, "written_by": k.written_by} for k in choice.kept
                ]
                kept[key]["candidates"] = by_id[key].candidates
                for source in (texts[key]["source"], "all"):
                    c = counts.setdefault(f"{name}|{source}", Counter())
                    c["texts"] += 1
                    c["shown"] += len(choice.kept)
                    c["with 3"] += len(choice.kept) >= 3
                    c["with any"] += bool(choice.kept)
                    c["model"] += choice.from_model
                    c["candidates"] += len(by_id[key].candidates)
                    c["usable"] += len(choice.usable.questions)
                    c["bad shown"] += sum(
                        bool(hard_flaws(k.question, text=text))
                        or not stems(k.question) & stems(text)
                        for k in choice.kept
                        if k.written_by == MODEL
                    )
            counts[f"{name}|seconds"] = Counter(
                model=model_seconds / len(texts), cpu_ms=1000 * cpu / len(texts)
            )
    finally:
        server.stop()
    for key in kept.values():
        for source in (key["source"], "all"):
            c = counts.setdefault(f"offline|{source}", Counter())
            c["texts"] += 1
            c["shown"] += len(key["offline"])
            c["with 3"] += len(key["offline"]) >= 3
            c["with any"] += bool(key["offline"])
    print(f"{SERVED_MODEL_NAME} on llama.cpp's server, {args.candidates} sample(s) per text")
    print(
        "route        source  texts  shown  with 3  with any  model  candidates  usable  bad shown"
    )
    for key, c in sorted(counts.items()):
        if key.endswith("|seconds"):
            continue
        route, source = key.split("|")
        print(
            f"{route:<12} {source:<7} {c['texts']:>5} {c['shown']:>6} {c['with 3']:>7} "
            f"{c['with any']:>9} {c['model']:>6} {c['candidates']:>11} {c['usable']:>7} "
            f"{c['bad shown']:>10}"
        )
    for key, c in counts.items():
        if key.endswith("|seconds"):
            print(
                f"{key.split('|')[0]}: the model's calls {c['model']:.2f} s per text (wall), "
                f"the choice {c['cpu_ms']:.1f} ms of CPU per text"
            )
    if args.out:
        args.out.write_text(json.dumps(kept, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
