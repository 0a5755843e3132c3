"""Blocks the sections of the tasks' own files share: the file's signature in one
line, and a sweep of figures over thresholds (a line chart and its table)."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from maieutic.report.html.plots_grid import line_chart
from maieutic.report.html.tables import Header, Table, is_number, number, signature_markup
from maieutic.report.html.templating import Block
from maieutic.signature import Signature


def signature_block(data: dict[str, Any]) -> Block | None:
    """The file's signature as one line (from its string, or rebuilt from its fields)."""
    text = data.get("signature_string")
    if not isinstance(text, str) and isinstance(data.get("signature"), dict):
        text = str(Signature.from_dict(data["signature"]))
    if not isinstance(text, str):
        return None
    return Block(html=Markup('<p class="note">Signature: {}</p>').format(signature_markup(text)))


def rows(value: Any) -> list[dict[str, Any]]:
    """The records of a JSON list (anything else: none)."""
    return [r for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def sweep_block(
    records: list[dict[str, Any]], chosen: Any, series: list[tuple[str, str]], *, title: str
) -> Block:
    """Figures by threshold: one line per ``(key, label)`` of ``series``, the chosen
    threshold marked, and the same numbers as a table."""
    xs = [float(r["threshold"]) for r in records]
    lines = [
        (label, [r.get(key) if is_number(r.get(key)) else None for r in records])
        for key, label in series
    ]
    mark = chosen if is_number(chosen) else None
    chart = line_chart(
        xs,
        lines,
        "threshold",
        y_label="value",
        title=title,
        mark=mark,
        mark_label=f"chosen {mark:g}" if mark is not None else "",
    )
    table = Table(
        [
            Header("threshold", numeric=True),
            *(Header(label, numeric=True) for _, label in series),
            Header("chosen"),
        ]
    )
    for r in records:
        table.add(
            [
                number(r.get("threshold"), "{:g}"),
                *(number(r.get(k), "{:.3f}") for k, _ in series),
                "✓" if mark is not None and r.get("threshold") == mark else "",
            ]
        )
    return Block("Threshold sweep", "", chart, table=table)
