"""Showing an ``ask`` result: in the terminal (rich, the Socratic spans highlighted in
the text), as Markdown, or as JSON."""

from __future__ import annotations

import json
from dataclasses import replace

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from maieutic.ask.pipeline import AskResult
from maieutic.ask.socratic import OFFLINE
from maieutic.terminal_text import terminal_safe_all

SPAN_STYLES = ("bold black on yellow", "bold black on cyan")
MAX_SHOWN_CHARS = 3000
"""A long document is shown only up to here in the terminal (the spans are marked in
what is shown; the JSON keeps the whole text)."""


def safe_result(result: AskResult) -> AskResult:
    """``result`` with every string safe to print (``terminal_safe``): what a model
    wrote, a file's name, the warnings. The text is already clean (``ask_text``), so
    the spans' offsets still hold."""
    fields = (
        "text",
        "source",
        "cqs",
        "focus",
        "aura",
        "signatures",
        "origins",
        "none",
        "warnings",
        "failures",
    )
    return replace(result, **{name: terminal_safe_all(getattr(result, name)) for name in fields})


def heading(result: AskResult, title: str, *, part: str) -> str:
    """A part's title with the generator that wrote it (and why it stood in, if it
    did): ``Socratic questions (offline claims generator: the model's reply …)``."""
    origin = result.origins.get(part)
    return f"{title} ({origin})" if origin else title


def offline_mark(question: dict) -> str:
    """`` (offline)`` after a question the claims generator wrote where a model wrote
    the others (model-first: it filled a slot the model left empty)."""
    return " (offline)" if question.get("written_by") == "claims" else ""


def no_critical(result: AskResult) -> str:
    """What the critical part says when it has no question: why, and what would help."""
    return f"none: {result.none.get('cqs') or 'no critical question'}"


def no_socratic(result: AskResult) -> str:
    """What the Socratic part says when it has no question."""
    if result.origins.get("focus", "").startswith(f"{OFFLINE}: "):  # it stood in
        return "none: the offline generator found no weakness either"
    return "none: no weakness cue found"


def highlighted(result: AskResult) -> Text:
    """The text with each Socratic question's span styled, numbered like the questions."""
    shown = result.text[:MAX_SHOWN_CHARS]
    text = Text(shown)
    for n, label in enumerate(result.focus):
        start, end = label.get("start"), label.get("end")
        if start is not None and end is not None and end <= len(shown):
            text.stylize(SPAN_STYLES[n % len(SPAN_STYLES)], start, end)
    if len(result.text) > MAX_SHOWN_CHARS:
        text.append(f"\n… ({len(result.text) - MAX_SHOWN_CHARS:,} more characters)", style="dim")
    return text


def _aura_table(aura: dict) -> Table:
    table = Table(title=f"Questions about the document ({aura['origin']})", title_justify="left")
    table.add_column("question")
    table.add_column("answerable", justify="center")
    table.add_column("score", justify="right")
    for q in aura["questions"]:
        table.add_row(Text(q["question"]), "yes" if q["answerable"] else "no", f"{q['score']:.2f}")
    scores = aura["scores"]
    table.caption = (
        f"AURA {aura['score'] + 0.0:.3f} = mean of answerability "
        f"{scores['answerability'] + 0.0:.2f}, coverage {scores['coverage'] + 0.0:.2f}, "
        f"non-redundancy {scores['non_redundancy'] + 0.0:.2f}, "
        f"entropy {scores['entropy'] + 0.0:.2f}"
    )
    return table


def _print_hanging(console: Console, text: Text, indent: int = 5) -> None:
    """``text`` wrapped to the terminal with its later lines indented, so that a long
    question stays visibly one item (rich would start them at column 0)."""
    lines = text.wrap(console, max(20, console.width - indent))
    for n, line in enumerate(lines):
        console.print(Text(" " * indent) + line if n else line, soft_wrap=True)


def print_terminal(result: AskResult, console: Console) -> None:
    """The rich terminal view."""
    result = safe_result(result)
    # user text never goes through rich's markup parser: "[/x]" in an argument is text
    console.print(Panel(highlighted(result), title=Text(result.source), title_align="left"))
    console.print(Text(heading(result, "Critical questions", part="cqs"), style="bold"))
    for n, q in enumerate(result.cqs, start=1):
        _print_hanging(console, Text(f"  {n}. {q['question']}{offline_mark(q)}"))
    if not result.cqs:
        _print_hanging(console, Text(f"  {no_critical(result)}"))
    console.print(Text(heading(result, "Socratic questions", part="focus"), style="bold"))
    if not result.focus:
        console.print(Text(f"  {no_socratic(result)}"))
    for n, label in enumerate(result.focus):
        marker = Text(f"  [{label['type_name']}] ", style=SPAN_STYLES[n % len(SPAN_STYLES)])
        _print_hanging(console, marker + Text(label["question"] or ""))
    if result.aura:
        console.print(_aura_table(result.aura))
    for warning in result.warnings:
        console.print(Text(f"warning: {warning}", style="yellow"))
    for task, signature in result.signatures.items():
        console.print(Text(f"{task}: {signature}", style="dim"), soft_wrap=True)


_MD_SPECIAL = str.maketrans(
    {c: "\\" + c for c in "\\*_`[]#|"} | {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
)


def _md_escape(text: str) -> str:
    """User text as literal Markdown: emphasis, links, code and tables escaped, and HTML
    turned into entities so a renderer never passes a tag or a comment through."""
    return text.translate(_MD_SPECIAL)


def to_markdown(result: AskResult) -> str:
    """The Markdown view: spans in bold in the quoted text."""
    result = safe_result(result)
    marked, last = [], 0
    spans = sorted(
        (label["start"], label["end"]) for label in result.focus if label.get("start") is not None
    )
    for start, end in spans:
        if start < last:
            continue  # overlapping spans: the first one is marked
        marked += [_md_escape(result.text[last:start]), f"**{_md_escape(result.text[start:end])}**"]
        last = end
    marked.append(_md_escape(result.text[last:]))
    quoted = "\n".join(f"> {line}" if line else ">" for line in "".join(marked).splitlines())
    lines = [quoted, "", f"## {_md_escape(heading(result, 'Critical questions', part='cqs'))}", ""]
    lines += [
        f"{n}. {_md_escape(q['question'])}{offline_mark(q)}"
        for n, q in enumerate(result.cqs, start=1)
    ] or [f"- {_md_escape(no_critical(result))}"]
    lines += ["", f"## {_md_escape(heading(result, 'Socratic questions', part='focus'))}", ""]
    lines += [
        f"- **{label['type_name']}** — {_md_escape(label['question'] or '')} "
        f"(span: “{_md_escape(label['span'])}”)"
        for label in result.focus
    ] or [f"- {no_socratic(result)}"]
    if result.aura:
        aura = result.aura
        lines += ["", f"## Questions about the document ({aura['origin']})", ""]
        lines += ["| question | answerable | score |", "|---|---|---|"]
        for q in aura["questions"]:
            cell = _md_escape(q["question"])
            lines.append(f"| {cell} | {'yes' if q['answerable'] else 'no'} | {q['score']:.2f} |")
        lines += [
            "",
            f"AURA score {aura['score']:.3f}: "
            + ", ".join(f"{k.replace('_', '-')} {v + 0.0:.2f}" for k, v in aura["scores"].items()),
        ]
    if result.warnings:
        lines += [""] + [f"*Warning: {_md_escape(w)}*" for w in result.warnings]
    lines += ["", "Signatures:", "", "```"]
    lines += [f"{k}: {v}" for k, v in result.signatures.items()] + ["```"]
    return "\n".join(lines) + "\n"


def to_json(result: AskResult) -> str:
    """The JSON view (JSON escapes the C0 controls itself; the C1 ones, which some
    terminals obey, it writes as they are)."""
    return json.dumps(safe_result(result).to_json(), ensure_ascii=False, indent=2) + "\n"
