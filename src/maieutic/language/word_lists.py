"""Word lists written as text: ``words("all, every, no one")``.

The language modules keep long lists of cue words. As set literals a formatter puts
one word per line (hundreds of lines a reader must scroll past); as one comma-separated
text they read as the lists they are, and the formatter leaves them as written.
"""

from __future__ import annotations


def words(text: str) -> frozenset[str]:
    """The comma-separated words or phrases of ``text``; any run of white space (a line
    break inside a phrase) is one space, and none is kept around a phrase."""
    return frozenset(" ".join(part.split()) for part in text.split(",") if part.strip())
