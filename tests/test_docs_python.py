"""docs/python.md runs as written: its ```python blocks, in order, in one namespace."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "python.md"


def test_the_python_guide_runs_as_written(capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) >= 4
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    printed = capsys.readouterr().out
    assert printed.startswith("0.467 task:cqs|eval:chrf|thr:30|")  # as the guide shows
    run, generated = namespace["run"], namespace["generated"]
    assert list(namespace["summary"].index) == ["sample_submission"]
    assert set(namespace["questions"]["cqs.label"].dropna()) <= {
        "Useful", "Unhelpful", "Invalid", "not_able_to_evaluate"
    }  # fmt: skip
    assert (namespace["folder"] / "results.json").exists() and run.evaluator.name == "chrf"
    questions = generated.output["text"]["cqs"]
    assert len(questions) == 3 and all(q["cq"] in printed for q in questions)
    assert generated.record["generator"]["name"] == "claims"
    pair = namespace["comparison"].pairs[0]
    assert (pair.baseline, pair.other) == ("sample_submission", "claims")
    assert pair.sentence() in printed and pair.test.exact  # five texts: every shuffle
