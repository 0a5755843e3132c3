"""Synthetic but realistic submissions for benchmarks: reworded reference questions.

Each submission takes three references per intervention (chosen with its own seed)
and rewords them, so its texts are new to the embedding cache, as a real system's
questions would be.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

_OPENERS = ["", "In this case, ", "Given the text, ", "Honestly, ", "To be precise, ", "Then, "]
_SWAPS = [
    ("the speaker", "the author"),
    ("the author", "the speaker"),
    ("evidence", "proof"),
    ("Is it", "Would it be"),
    ("What", "Which"),
    ("claim", "assertion"),
]


def reword(text: str, rng: random.Random, tag: int) -> str:
    """A light, deterministic rewording that keeps the question's meaning."""
    old, new = rng.choice(_SWAPS)
    body = text.replace(old, new, 1)
    opener = rng.choice(_OPENERS)
    if opener:
        body = opener + body[0].lower() + body[1:]
    return f"{body.rstrip('?')} (v{tag})?"


def make_submissions(dataset_path: Path, count: int, out_dir: Path) -> list[Path]:
    """Write ``count`` submissions of 3 questions per intervention into ``out_dir``."""
    data = json.loads(dataset_path.read_text(encoding="utf-8"))
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for n in range(count):
        rng = random.Random(1000 + n)
        sub = {}
        for key, item in data.items():
            picks = rng.sample(item["cqs"], 3)
            sub[key] = {
                "intervention_id": key,
                "cqs": [{"id": i, "cq": reword(q["cq"], rng, n)} for i, q in enumerate(picks)],
            }
        path = out_dir / f"system_{n:02d}.json"
        path.write_text(json.dumps(sub), encoding="utf-8")
        paths.append(path)
    return paths


def distinct_texts(dataset_path: Path, submissions: list[Path]) -> list[str]:
    """Every distinct reference and question text of a run."""
    texts = [
        q["cq"].strip()
        for item in json.loads(dataset_path.read_text()).values()
        for q in item["cqs"]
    ]
    for path in submissions:
        for entry in json.loads(path.read_text()).values():
            texts.extend(q["cq"].strip() for q in entry["cqs"])
    return list(dict.fromkeys(texts))
