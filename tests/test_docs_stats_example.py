"""The example in docs/stats.md runs as written and prints the figures its comments state."""

import re
from pathlib import Path

from maieutic.stats import bootstrap_ci, cohen_kappa, krippendorff_alpha

DOC = Path(__file__).resolve().parent.parent / "docs" / "stats.md"


def test_stats_example_runs_and_its_figures_hold(capsys):
    [code] = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    namespace: dict = {}
    exec(compile(code, str(DOC), "exec"), namespace)
    assert "kappa is undefined" in capsys.readouterr().out
    a, b = namespace["a"], namespace["b"]
    assert round(cohen_kappa(a, b), 3) == 0.478
    interval = bootstrap_ci(cohen_kappa, a, b)
    assert (round(interval.low, 3), interval.high) == (-0.143, 1.0)
    assert round(krippendorff_alpha([[1, 2, 3, None], [1, 2, 2, 3]], level="interval"), 3) == 0.706
