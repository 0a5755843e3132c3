"""The terminal view of a paired comparison (``maieutic compare``): a table of the
systems against the baseline (or of every pair), a sentence per test against the
baseline, the shared signature and how the figures were made."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from maieutic.evaluate.compare import Comparison, Pair
from maieutic.report.tables import SAME


def _verdict(pair: Pair) -> str:
    if not pair.significant:
        return f"{SAME} not significant"
    return "better" if pair.test.difference > 0 else "worse"


def comparison_table(comparison: Comparison) -> Table:
    """One row per test: the two systems, their scores, the difference with its
    interval, the p-value and what it means."""
    level = f"{comparison.settings.confidence:.0%}"
    pairwise = any(p.baseline != comparison.baseline for p in comparison.pairs)
    title = "every pair" if pairwise else f"against {comparison.baseline}"
    table = Table(title=f"{comparison.task} · {title}", title_justify="left")
    headers = (
        "system",
        "score",
        "against",
        "its score",
        "difference",
        f"{level} interval",
        "p",
        "",
    )
    for header in headers:
        table.add_column(header, justify="left" if header in ("system", "against", "") else "right")
    for pair in comparison.pairs:
        t = pair.test
        table.add_row(
            pair.other,
            f"{t.other:.4f}",
            pair.baseline,
            f"{t.baseline:.4f}",
            f"{t.difference:+.4f}",
            f"[{t.low:+.4f}, {t.high:+.4f}]",
            f"{t.p_value:.4f}",
            _verdict(pair),
        )
    return table


def comparison_notes(comparison: Comparison) -> list[str]:
    """The lines under the table."""
    lines = []
    if not any(p.baseline != comparison.baseline for p in comparison.pairs):
        lines += [p.sentence() for p in comparison.pairs]
    else:
        n = sum(p.significant for p in comparison.pairs)
        lines.append(f"{n} of {len(comparison.pairs)} pairs differ significantly")
    lines += [
        "difference: score − its score (the system's minus the one it is tested against); "
        f"better/worse: significantly, at p < {comparison.settings.alpha:g}; {SAME}: not "
        "significantly different",
        f"method: {comparison.method()}",
        f"signature (every system): {comparison.signature}",
        *comparison.notes,
    ]
    return lines


def print_comparison(comparison: Comparison, console: Console) -> None:
    """The table, then its notes (printed as they are, never as markup)."""
    console.print(comparison_table(comparison))
    for line in comparison_notes(comparison):
        console.print(line, highlight=False, markup=False)
