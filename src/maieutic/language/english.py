"""Is a text English? Enough to warn that English templates, cues and models may not
fit it — not a language identifier.

Two signals that work on short texts too: most letters outside the Latin alphabet
(Chinese, Arabic, Cyrillic…), or more function words of another common European
language than of English (a German or Spanish sentence has its "der", "und", "que"
long before it has enough words for a frequency threshold)."""

from __future__ import annotations

import re

_ENGLISH = frozenset(
    "the a an and or but of to in on at for with from by is are was were be been it this "  # noqa: SIM905
    "that these those we you they he she i not no do does did have has had will would "
    "should can could must because so if than then there their our your my".split()
)
_OTHER = (
    frozenset(
        # German
        "der die das und ist nicht ein eine wir sie ich zu mit auf für von dem den des sich "  # noqa: SIM905
        "weil sollten auch aber wenn "
        # Spanish / Portuguese / Italian
        "el la los las y es que de en un una por con para del se no pero como porque "
        "il lo gli e di che per non sono della uma os em não "
        # French / Dutch
        "le les et est une des du dans pour pas qui sur au nous vous ce ces "
        "het een en van niet zijn wij dat voor".split()
    )
    - _ENGLISH
)
_WORD = re.compile(r"[^\W\d_]+")


def looks_english(text: str) -> bool:
    """False when most letters are non-Latin, or another language's function words
    outnumber English ones (at least three of them)."""
    letters = [c for c in text if c.isalpha()]
    if letters and sum(c.isascii() or "\u00c0" <= c <= "\u024f" for c in letters) < 0.5 * len(
        letters
    ):
        return False
    words = [w.lower() for w in _WORD.findall(text)]
    english = sum(w in _ENGLISH for w in words)
    other = sum(w in _OTHER for w in words)
    return not (other >= 3 and other > english)
