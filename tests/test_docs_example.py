"""The smallest complete task in docs/adding-a-task.md runs as written."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "adding-a-task.md"


def test_the_documented_example_task_runs():
    [code] = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    namespace: dict = {}
    exec(compile(code, str(DOC), "exec"), namespace)  # its own asserts check the result
    from maieutic.registry import names, rebuild

    assert "exact" in names("evaluator", "yesno")
    result = namespace["result"]
    assert rebuild(result.evaluator).spec == result.evaluator
