"""How ``maieutic demo`` writes: titled blocks of indented, wrapped plain sentences.

The demo tells a story (a text, the questions made for it, how they score), so it
prints sentences rather than tables; these helpers keep the wording of every block
the same shape and the lines short enough to read.
"""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections.abc import Iterable
from pathlib import Path

from rich.console import Console
from rich.text import Text

from maieutic.wording import plural

MAX_WIDTH = 100
"""Wider lines are hard to read; a narrower terminal wraps at its own width."""

NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def shorten(text: str, limit: int) -> str:
    """``text`` on one line, cut at a word boundary to at most ``limit`` characters with
    "…" where it was cut (a text that fits is returned whole)."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


def shorten_middle(text: str, limit: int) -> str:
    """``text`` on one line keeping its start and its end (where an answer's verdict
    is), "…" between them."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    head = shorten(flat, limit * 2 // 3).rstrip("…")
    tail = flat[-(limit - len(head) - 1) :]
    tail = tail.split(" ", 1)[1] if " " in tail else tail
    return f"{head} … {tail}"


def in_words(n: int) -> str:
    """A small count as a word ("two"), a larger one as digits."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def showing(shown: int, *, total: int, noun: str, where: Path | str) -> str:
    """The line that says which part of the input a block shows."""
    if shown >= total:
        return f"All {plural(total, noun)} are shown; they are in {where}."
    return f"Showing {shown} of {total} {noun}s; all {total} are in {where}."


def criteria_list(criteria: Iterable[int]) -> str:
    """Criterion numbers as runs: ``C1–C7, C13, C15``."""
    numbers = sorted(set(criteria))
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(
        f"C{r[0]}" if len(r) == 1 else f"C{r[0]}, C{r[1]}" if len(r) == 2 else f"C{r[0]}–C{r[-1]}"
        for r in runs
    )


class Story:
    """Prints the demo: titles, sentences wrapped under their indentation, and commands
    kept whole on one line (so they can be copied)."""

    def __init__(self, console: Console | None = None, width: int | None = None) -> None:
        if width is None:
            width = min(shutil.get_terminal_size((MAX_WIDTH, 24)).columns, MAX_WIDTH)
        self.width = width
        self.console = console or Console(file=sys.stdout, highlight=False, markup=False)

    def title(self, text: str) -> None:
        """A block's title, after a blank line."""
        self.console.print()
        self.console.print(Text(f"== {text} ==", style="bold"), soft_wrap=True)

    def say(self, text: str, indent: int = 0, *, hang: int = 0, style: str | None = None) -> None:
        """``text`` wrapped at the width, every line at ``indent`` and lines after the
        first ``hang`` further in (under a list number)."""
        wrapped = textwrap.fill(
            text,
            max(self.width, indent + hang + 20),
            initial_indent=" " * indent,
            subsequent_indent=" " * (indent + hang),
            break_long_words=False,
            break_on_hyphens=False,
        )
        self.console.print(Text(wrapped, style=style or ""), soft_wrap=True)

    def command(self, text: str, indent: int = 0) -> None:
        """A command line, never wrapped."""
        self.console.print(Text(" " * indent + text), soft_wrap=True)

    def gap(self) -> None:
        """A blank line."""
        self.console.print()
