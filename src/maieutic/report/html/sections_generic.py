"""Files the report reads without a layout of their own (agreement tables, rubric
leaderboards…): their figures, and every list of records or mapping of records as a
table."""

from __future__ import annotations

from typing import Any

from maieutic.report.html.file_blocks import signature_block
from maieutic.report.html.loader import InputFile
from maieutic.report.html.tables import Header, Table, auto_number, is_number, key_value
from maieutic.report.html.templating import Block

SKIP = {"format", "provenance", "signature", "signature_string"}
"""Top-level fields shown elsewhere (the signature) or not figures (provenance)."""


def _flat(prefix: str, value: Any) -> list[tuple[str, Any]]:
    """Nested mappings of scalars as dotted names."""
    if isinstance(value, dict):
        return [
            row for k, v in value.items() for row in _flat(f"{prefix}.{k}" if prefix else str(k), v)
        ]
    return [(prefix, value)]


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | bool) or is_number(value)


def records_table(records: list[dict[str, Any]], caption: str = "") -> Table:
    """Records (dicts) as rows; nested values become dotted columns."""
    flat = [dict((k, v) for k, v in _flat("", r) if _scalar(v)) for r in records]
    columns = list(dict.fromkeys(k for row in flat for k in row))
    numeric = {
        c for c in columns if all(is_number(row.get(c)) or row.get(c) is None for row in flat)
    }
    table = Table([Header(c, numeric=c in numeric) for c in columns], caption=caption)
    for row in flat:
        table.add([*(auto_number(row.get(c)) for c in columns)])
    return table


def generic_blocks(file: InputFile) -> list[Block]:
    """Whatever figures and tables ``file`` holds."""
    blocks: list[Block] = []
    if (signature := signature_block(file.data)) is not None:
        blocks.append(signature)
    scalars: list[tuple[str, Any]] = []
    for key, value in file.data.items():
        if key in SKIP:
            continue
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            blocks.append(Block(key, table=records_table(value)))
        elif isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            rows = [{"key": str(k), **v} for k, v in value.items()]
            blocks.append(Block(key, table=records_table(rows)))
        elif isinstance(value, dict):
            scalars += [(name, v) for name, v in _flat(key, value) if _scalar(v)]
        elif _scalar(value):
            scalars.append((key, value))
    if scalars:
        blocks.insert(
            1 if blocks and blocks[0].table is None else 0,
            Block("Figures", table=key_value(scalars)),
        )
    if not blocks:
        blocks.append(Block(note="The file holds no figures to show."))
    return blocks
