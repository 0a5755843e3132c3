"""The task's section of the HTML report: every answer of every submission."""

from __future__ import annotations

from maieutic.report.html.tables import Header, Table
from maieutic.report.html.templating import Block


def report_blocks(entries, finder) -> list[Block]:
    """One table: a row per question, a column per submission (wrong answers marked)."""
    del finder  # the questions' texts are not needed: the ids suffice
    table = Table([Header("question"), Header("expected"), *(Header(e.label) for e in entries)])
    answers = [{i["id"]: i for i in e.result.records()} for e in entries]
    for key, item in answers[0].items():
        row = []
        for found in answers:
            record = found.get(key, {})
            shown = str(record.get("answer") or "—")
            row.append(shown if record.get("score") else f"✗ {shown}")
        table.add([key, str(item["expected"]), *row])
    return [Block("Answers per question", "✗ marks a wrong answer.", table=table)]
