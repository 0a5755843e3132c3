"""``maieutic compare`` in blocks of resamples (issue 50): its memory does not grow
with units × resamples, its figures are pinned to the bit on fixed inputs whatever the
block size, and against the code before blocks nothing but the last bits of the
interval ends moved (that code's figures moved with the BLAS's thread count too)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import maieutic.stats.paired as paired
from tests.large_results import large_results, sample_results
from tests.paired_golden import BEFORE_BLOCKS, CASES, GOLDEN, every_case, figures

GOLDEN_FIGURES = json.loads(GOLDEN.read_text())
BEFORE = json.loads(BEFORE_BLOCKS.read_text())
SMALL = [case for case in CASES if case[1] < 10_000]
LARGE = [case for case in CASES if case[1] >= 10_000]


def _name(case: tuple[object, ...]) -> str:
    return "-".join(map(str, case))


@pytest.mark.parametrize(
    "case", SMALL + [pytest.param(c, marks=pytest.mark.slow) for c in LARGE], ids=_name
)
def test_the_figures_are_the_pinned_ones(case):
    assert figures(*case) == GOLDEN_FIGURES[_name(case)]


@pytest.mark.parametrize("cells", [1, 5_000])
@pytest.mark.parametrize("case", SMALL, ids=_name)
def test_no_block_size_changes_a_bit(case, cells, monkeypatch):
    # one resample per block, then a few: the random stream is drawn in the same order
    # and each resample summed alone, so every bit stays
    monkeypatch.setattr(paired, "_BLOCK_CELLS", cells)
    assert figures(*case) == GOLDEN_FIGURES[_name(case)]


@pytest.mark.slow
def test_whole_comparisons_from_results_files_are_the_pinned_ones(tmp_path):
    for name, compute in every_case(tmp_path):
        if name.startswith("compare-"):
            assert compute() == GOLDEN_FIGURES[name], name


def _close(before: str | float, now: str | float) -> bool:
    as_float = float.fromhex if isinstance(before, str) else float
    return abs(as_float(before) - as_float(now)) <= 1e-12  # type: ignore[arg-type]


def test_against_the_code_before_blocks_only_interval_ends_moved_in_their_last_bits():
    for name, now in GOLDEN_FIGURES.items():
        before = BEFORE[name]
        if name.startswith("compare-"):
            for old, new in zip(before, now, strict=True):
                assert {k: v for k, v in old.items() if k not in ("low", "high")} == {
                    k: v for k, v in new.items() if k not in ("low", "high")
                }, name
                assert _close(old["low"], new["low"]) and _close(old["high"], new["high"])
            continue
        # p-values, shuffles, exactness and undefined counts: the same to the bit
        assert before["randomization"] == now["randomization"], name
        for key in (k for k in now if k.startswith("bootstrap")):
            if isinstance(now[key], str):
                assert before[key] == now[key]
                continue
            assert before[key][2] == now[key][2], name
            assert all(_close(b, n) for b, n in zip(before[key][:2], now[key][:2], strict=True)), (
                name
            )


_MEASURE = """
import resource, subprocess, sys
done = subprocess.run([sys.executable, "-m", "maieutic", "-q", *sys.argv[1:]],
                      stdout=subprocess.DEVNULL)
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def _peak_rss_mb(*argv: str) -> float:
    # Linux counts a child's peak from the memory it was forked with: started from this
    # test process (a worker holding its models: 2.3 GB in CI) the figure would be the
    # worker's. A small fresh interpreter starts the command and reads its peak instead.
    out = subprocess.run(
        [sys.executable, "-c", _MEASURE, *argv], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == "0", out
    return int(out[1]) / 1024  # KiB on Linux


CEILING_MB = 400
"""Peak RSS of compare at 100,000 units with the defaults, reading a 22 MB results
file: about 210 MB in blocks, 9.6 GB before them."""


@pytest.mark.slow
def test_compare_at_100000_units_stays_under_a_memory_ceiling(tmp_path):
    results = large_results(
        sample_results(tmp_path), 100_000, tmp_path / "results.json", questions=False
    )
    peak = _peak_rss_mb("compare", str(results), "--out", str(tmp_path / "compare.json"))
    assert peak < CEILING_MB, f"peak RSS {peak:.0f} MB"


def test_a_confidence_that_is_not_a_number_is_one_line(cli, tmp_path):
    results = large_results(sample_results(tmp_path), 30, tmp_path / "results.json")
    done = cli("compare", results, "--confidence", "nan")
    assert done.code == 2
    assert "Invalid value for '--confidence': 'nan' is not a finite number" in done.err
    assert "Traceback" not in done.err
