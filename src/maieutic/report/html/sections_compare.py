"""The report's view of ``maieutic compare`` files: each pair's difference with its
paired-bootstrap interval, the randomization p-value and the sentence saying what they
mean, under how the figures were made."""

from __future__ import annotations

from markupsafe import Markup

from maieutic.report.hooks import InputFile
from maieutic.report.html.tables import Header, Table, number
from maieutic.report.html.templating import Block


def _rows(value: object) -> list[dict]:
    return [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def compare_section(file: InputFile) -> tuple[str, list[Block]]:
    """``maieutic compare``: one row per pair tested, then the sentences."""
    data = file.data
    level = data["settings"].get("confidence", 0.95) if isinstance(data["settings"], dict) else 0.95
    table = Table(
        [
            Header("system"),
            Header("score", numeric=True),
            Header("against"),
            Header("its score", numeric=True),
            Header("difference", "score − its score", numeric=True),
            Header("low", f"{level:.0%} paired-bootstrap interval", numeric=True),
            Header("high", numeric=True),
            Header("p", "approximate-randomization p-value", numeric=True),
            Header("significant"),
        ]
    )
    pairs = _rows(data["comparisons"])
    for p in pairs:
        table.add(
            [
                str(p.get("other")),
                number(p.get("other_score")),
                str(p.get("baseline")),
                number(p.get("baseline_score")),
                number(p.get("difference"), "{:+.4f}"),
                number(p.get("low"), "{:+.4f}"),
                number(p.get("high"), "{:+.4f}"),
                number(p.get("p_value")),
                "yes" if p.get("significant") else "no",
            ]
        )
    sentences = Markup("").join(
        Markup("<li>{}</li>").format(str(p.get("sentence", ""))) for p in pairs
    )
    html = Markup("<ul>{}</ul><p>Signature (every system): <code>{}</code></p>").format(
        sentences, str(data["signature"])
    )
    note = f"Baseline {data['baseline']}; {data['method']}."
    block = Block("Paired comparisons", note, table=table, html=html)
    return f"Paired comparisons ({data['task']})", [block]
