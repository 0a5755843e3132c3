"""What each critical-question route shows when a strong model writes the candidates:
real shared-task systems' questions replayed through an OpenAI-compatible stand-in,
scored by people's labels.

    python benchmarks/bench_replay.py [--part heldout|tuning] [--replays 5]
        [--scorer DIR] [--routes NAME,NAME] [--out FILE.json]

The texts are the CQs development interventions of ``replay/heldout_58.json`` (fixed
before the route was built): ``--part heldout`` (the default) those it holds,
``tuning`` the rest. Each text's candidates come from the released files in
``../shared/data/cqs`` (never copied into the repository):

- *systems* (test-dev texts): the questions shared-task systems wrote, with people's
  labels (``extended_test-dev.json``, integer ids: each system's three in a row). One
  replay is a model that writes ``PER_REPLY`` questions: the triples of the systems
  in a shuffled order (``random.Random(f"{replay}|{text}")``), so its first three are
  one system's own;
- *references* (validation-dev texts): the LLM-written, people-labelled reference
  questions, shuffled the same way.

Each replay is served by ``maieutic cqs replay``'s server (``ReplayIndex`` behind
``ReplyServer``, on a free loopback port) and every route runs against it through the
real client: the model alone (``--generator llm``), model-first with each selector,
and the offline claims generator. A question shown is labelled by the stored question
it was read from (people's label); the claims generator's are not labelled (it wrote
them). Baselines from the candidates themselves: the first three, three at random
(the expected rate) and the best three (oracle). Intervals: 95% bootstrap over texts
(each text's replays averaged first).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data" / "cqs"
PER_REPLY = 8
"""Questions one replayed reply holds (three systems' triples, the last one cut)."""
ROUTES = {
    "llm": ("llm", {}),
    "model-first": ("model-first", {}),
    "model-first+random": ("model-first", {"selector": "random"}),
    "model-first+dedup": ("model-first", {"selector": "dedup"}),
    "model-first+overlap": ("model-first", {"selector": "overlap"}),
    "model-first+usefulness": ("model-first", {"selector": "usefulness"}),
    "model-first+llm-judge": ("model-first", {"selector": "llm-judge"}),
    "claims": ("claims", None),
}
"""Route name → (generator, its options; None: no model)."""


def _flat(text: str) -> str:
    return " ".join(text.split()).lower()


def held_out() -> dict[str, list[str]]:
    """The held-out text ids by file."""
    return json.loads((HERE / "replay" / "heldout_58.json").read_text())


def sources(part: str) -> dict[str, dict]:
    """Per text: its record (text, labelled candidates in file order, source)."""
    fixed = held_out()
    want = part == "heldout"
    out = {}
    extended = json.loads((DATA / "extended_test-dev.json").read_text())
    for iid, item in extended.items():
        if (iid in fixed["cqs_test_dev"]) == want:
            system = [q for q in item["cqs"] if isinstance(q["id"], int)]
            triples = [system[i : i + 3] for i in range(0, len(system), 3)]
            out[iid] = {"item": item, "groups": triples, "source": "systems"}
    validation = json.loads((DATA / "validation-dev.json").read_text())
    for iid, item in validation.items():
        if (iid in fixed["cqs_validation_dev"]) == want:
            out[iid] = {"item": item, "groups": [[q] for q in item["cqs"]], "source": "references"}
    return out


def replay_candidates(texts: dict[str, dict], replay: int) -> dict[str, dict]:
    """One replay: each text's ``PER_REPLY`` candidates, in a shuffled order of groups
    (dataset layout, labels kept)."""
    out = {}
    for iid, found in texts.items():
        groups = list(found["groups"])
        random.Random(f"{replay}|{iid}").shuffle(groups)
        questions = [q for group in groups for q in group][:PER_REPLY]
        item = found["item"]
        out[iid] = {
            "intervention_id": iid,
            "intervention": item["intervention"],
            "dataset": item.get("dataset", ""),
            "cqs": [
                {"id": str(n), "cq": q["cq"], "label": q["label"]} for n, q in enumerate(questions)
            ],
        }
    return out


def label_lookup(candidates: dict[str, dict]) -> dict[str, dict[str, str]]:
    """Per text: each stored question (and each way a route reads it) → its label."""
    from maieutic.generate.parsing import parse_questions

    out = {}
    for iid, item in candidates.items():
        labels: dict[str, str] = {}
        for q in item["cqs"]:
            for form in (q["cq"], *parse_questions(f"1. {q['cq']}", whole_items=True)):
                labels.setdefault(_flat(form), q["label"])
            for form in parse_questions(f"1. {q['cq']}"):  # the llm route splits items
                labels.setdefault(_flat(form), q["label"])
        out[iid] = labels
    return out


def baselines(candidates: dict[str, dict]) -> dict[str, dict[str, float]]:
    """Per text: the Useful share of the first three, of three at random (expected)
    and of the best three."""
    out = {}
    for iid, item in candidates.items():
        useful = [q["label"] == "Useful" for q in item["cqs"]]
        k = min(3, len(useful))
        out[iid] = {
            "first-3": sum(useful[:3]) / k,
            "random-3": sum(useful) / len(useful),
            "oracle-3": min(sum(useful), 3) / k,
        }
    return out


def run_route(name: str, dataset, served: tuple[str, str], scorer: str | None):
    """The route's outcomes over ``dataset`` (quietly), the model ``served`` as
    (name, base URL)."""
    from maieutic.registry import create

    generator, options = ROUTES[name]
    if options is None:
        component = create("generator", task="cqs", name=generator)
    else:
        options = dict(options)
        if options.get("selector") == "scorer":
            options["selector"] = f"scorer:{scorer}"
        component = create(
            "generator", task="cqs", name=generator, llm=served[0], base_url=served[1], **options
        )
    return component.generate(dataset, on_progress=lambda *_: None).outcomes


def measure(part: str, replays: int, routes: list[str], scorer: str | None) -> dict:
    """Every route on every replay: per text, per replay, what was shown."""
    from maieutic.llm.reply_server import ReplyServer
    from maieutic.tasks.cqs.candidates import load_candidates
    from maieutic.tasks.cqs.data import CQDataset, Intervention
    from maieutic.tasks.cqs.replay import ReplayIndex

    texts = sources(part)
    dataset = CQDataset(
        interventions={
            iid: Intervention(intervention_id=iid, intervention=t["item"]["intervention"])
            for iid, t in texts.items()
        },
        source=f"<{part}>",
    )
    rows: dict[str, dict[str, list]] = defaultdict(lambda: defaultdict(list))
    base: dict[str, list] = defaultdict(list)
    seconds: dict[str, float] = defaultdict(float)
    folder = Path(tempfile.mkdtemp(prefix="replay58-"))
    for r in range(replays):
        candidates = replay_candidates(texts, r)
        path = folder / f"replay-{r}.json"
        path.write_text(json.dumps(candidates))
        labels = label_lookup(candidates)
        for iid, figures in baselines(candidates).items():
            base[iid].append(figures)
        index = ReplayIndex(load_candidates(path))
        with ReplyServer(index.answer, model=index.model) as server:
            for name in routes:
                start = time.process_time()
                outcomes = run_route(name, dataset, (index.model, server.base_url), scorer)
                seconds[name] += time.process_time() - start
                for o in outcomes:
                    shown = o.questions or []
                    offline = set(getattr(o, "filled", []) or [])
                    if name == "claims":
                        offline = set(shown)
                    model = [q for q in shown if q not in offline]
                    got = [labels[o.intervention_id].get(_flat(q)) for q in model]
                    rows[name][o.intervention_id].append(
                        {
                            "shown": len(shown),
                            "model": len(model),
                            "labelled": sum(g is not None for g in got),
                            "useful": sum(g == "Useful" for g in got),
                            "invalid": sum(g == "Invalid" for g in got),
                        }
                    )
        print(f"replay {r + 1}/{replays} done", file=sys.stderr)
    return {
        "part": part,
        "replays": replays,
        "texts": {iid: t["source"] for iid, t in texts.items()},
        "routes": {k: dict(v) for k, v in rows.items()},
        "baselines": dict(base),
        "cpu_seconds": dict(seconds),
    }


def _per_text(rows: list[dict], key: str) -> float:
    return float(np.mean([r[key] for r in rows]))


def _ratio_ci(num: np.ndarray, den: np.ndarray, seed: int = 58) -> tuple[float, float, float]:
    """sum(num)/sum(den) over texts, with a 95% bootstrap interval over texts."""
    rng = np.random.default_rng(seed)
    estimate = num.sum() / den.sum() if den.sum() else float("nan")
    values = []
    for _ in range(2000):
        idx = rng.integers(0, len(num), len(num))
        if den[idx].sum():
            values.append(num[idx].sum() / den[idx].sum())
    low, high = np.percentile(values, [2.5, 97.5]) if values else (float("nan"),) * 2
    return float(estimate), float(low), float(high)


def paired(
    result: dict, route: str, *, base: str, source: str | None
) -> tuple[float, float, float]:
    """Mean over texts of the difference in Useful share (``route`` minus ``base``), with
    a 95% bootstrap interval over texts (the same texts and replays: a paired test)."""
    rows = result["routes"]
    texts = [t for t, s in result["texts"].items() if source in (None, s) and t in rows[route]]

    def share(name: str, text: str) -> float:
        found = rows[name][text]
        labelled = sum(r["labelled"] for r in found)
        return sum(r["useful"] for r in found) / labelled if labelled else 0.0

    diff = np.array([share(route, t) - share(base, t) for t in texts])
    rng = np.random.default_rng(58)
    boots = [diff[rng.integers(0, len(diff), len(diff))].mean() for _ in range(2000)]
    low, high = np.percentile(boots, [2.5, 97.5])
    return float(diff.mean()), float(low), float(high)


def summarise(result: dict, source: str | None) -> list[dict]:
    """One row per route and baseline over the texts of ``source`` (None: all)."""
    texts = [t for t, s in result["texts"].items() if source in (None, s)]
    out = []
    for name, per_text in result["routes"].items():
        ids = [t for t in texts if t in per_text]
        shown = np.array([_per_text(per_text[t], "shown") for t in ids])
        model = np.array([_per_text(per_text[t], "model") for t in ids])
        labelled = np.array([_per_text(per_text[t], "labelled") for t in ids])
        useful = np.array([_per_text(per_text[t], "useful") for t in ids])
        invalid = np.array([_per_text(per_text[t], "invalid") for t in ids])
        with3 = np.array([np.mean([r["shown"] >= 3 for r in per_text[t]]) for t in ids])
        rate = _ratio_ci(useful, labelled)
        out.append(
            {
                "route": name,
                "texts": len(ids),
                "shown_per_text": float(shown.mean()),
                "texts_with_3": float(with3.sum()),
                "model_share": float(model.sum() / shown.sum()) if shown.sum() else 0.0,
                "reworded": float((model - labelled).sum() / model.sum()) if model.sum() else 0.0,
                "useful": rate,
                "invalid": float(invalid.sum() / labelled.sum()) if labelled.sum() else None,
                "useful_per_text": float(useful.mean()),
            }
        )
    for key in ("first-3", "random-3", "oracle-3"):
        values = np.array([np.mean([b[key] for b in result["baselines"][t]]) for t in texts])
        out.append(
            {
                "route": f"({key} of the candidates)",
                "texts": len(texts),
                "useful": _ratio_ci(values, np.ones_like(values)),
            }
        )
    return out


def print_table(result: dict) -> None:
    """The replay table per source and in all."""
    for source in ("systems", "references", None):
        rows = summarise(result, source)
        print(f"\n{source or 'all'} ({result['part']}, {result['replays']} replays per text)")
        print(
            f"{'route':34} {'texts':>5} {'shown/text':>10} {'with 3':>7} {'model':>6} "
            f"{'Useful [95% CI]':>22} {'Invalid':>7} {'Useful/text':>11}"
        )
        for row in rows:
            est, low, high = row["useful"]
            ci = f"{est:.3f} [{low:.2f}, {high:.2f}]"
            if "shown_per_text" not in row:
                print(f"{row['route']:34} {row['texts']:>5} {'':>10} {'':>7} {'':>6} {ci:>22}")
                continue
            invalid = "" if row["invalid"] is None else f"{row['invalid']:.3f}"
            print(
                f"{row['route']:34} {row['texts']:>5} {row['shown_per_text']:>10.2f} "
                f"{row['texts_with_3']:>7.1f} {row['model_share']:>6.2f} {ci:>22} "
                f"{invalid:>7} {row['useful_per_text']:>11.2f}"
            )
    base = "model-first"
    if base in result["routes"]:
        print(f"\nUseful share against {base} in the model's order (paired over texts):")
        for name in result["routes"]:
            if name.startswith(f"{base}+") or name == "llm":
                cells = []
                for source in ("systems", "references", None):
                    est, low, high = paired(result, name, base=base, source=source)
                    cells.append(f"{source or 'all'} {est:+.3f} [{low:+.2f}, {high:+.2f}]")
                print(f"  {name:32} " + "   ".join(cells))
    cpu = result["cpu_seconds"]
    n = len(result["texts"]) * result["replays"]
    print("\nCPU per text (this process: the client and the replay server's thread in it):")
    for name, seconds in cpu.items():
        print(f"  {name:34} {1000 * seconds / n:8.1f} ms")


def time_ask(part: str) -> None:
    """``ask``'s critical-question part (``critical_questions``) against the replay
    server, per text of the first replay: wall and CPU seconds, and the CPU of the
    model-first choice alone (the model's calls excluded)."""
    from maieutic.ask.options import AskOptions
    from maieutic.ask.pipeline import critical_questions
    from maieutic.llm.reply_server import ReplyServer
    from maieutic.tasks.cqs.candidates import load_candidates
    from maieutic.tasks.cqs.replay import ReplayIndex

    texts = sources(part)
    path = Path(tempfile.mkdtemp(prefix="replay58-")) / "replay-0.json"
    path.write_text(json.dumps(replay_candidates(texts, 0)))
    index = ReplayIndex(load_candidates(path))
    with ReplyServer(index.answer, model=index.model) as server:
        options = AskOptions(llm=index.model, base_url=server.base_url)
        critical_questions(next(iter(texts.values()))["item"]["intervention"], options)  # warm
        wall, cpu = time.perf_counter(), time.process_time()
        for found in texts.values():
            critical_questions(found["item"]["intervention"], options)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    n = len(texts)
    print(f"ask's critical questions against the replay server, {n} texts: "
          f"{1000 * wall / n:.0f} ms per text (wall), {1000 * cpu / n:.0f} ms of CPU "
          "(the client and the server's thread in this process included)")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=["heldout", "tuning"], default="heldout")
    parser.add_argument("--replays", type=int, default=5)
    parser.add_argument("--routes", default=",".join(ROUTES), help="comma-separated")
    parser.add_argument(
        "--scorer",
        help="a usefulness judge trained without the held-out texts (maieutic train cqs "
        "on the tuning part); adds the route model-first+scorer",
    )
    parser.add_argument("--out", type=Path, help="keep every figure as JSON")
    parser.add_argument("--table", type=Path, help="print the table of a kept --out file")
    parser.add_argument(
        "--ask", action="store_true", help="time ask's critical-question part, instead"
    )
    args = parser.parse_args()
    if args.table:
        print_table(json.loads(args.table.read_text()))
        return
    if not DATA.is_dir():
        sys.exit(f"needs the shared data at {DATA}")
    os.environ.setdefault("MAIEUTIC_HOME", tempfile.mkdtemp(prefix="maieutic-home-"))
    if args.ask:
        time_ask(args.part)
        return
    routes = args.routes.split(",")
    if args.scorer:
        ROUTES["model-first+scorer"] = ("model-first", {"selector": "scorer"})
        routes.append("model-first+scorer")
    result = measure(args.part, args.replays, routes, args.scorer)
    print_table(result)
    if args.out:
        args.out.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
