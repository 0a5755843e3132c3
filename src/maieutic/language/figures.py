"""Numbers that state a quantity ("3000 members", "40 percent", "$5 billion"): the
figures a critical question may ask the source of."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from maieutic.language.word_lists import words

if TYPE_CHECKING:  # spaCy (and through it torch) loads only when a parser runs
    from spacy.tokens import Token

MAGNITUDES = words("million, millions, billion, billions, trillion, thousands, hundreds, percent")


def is_figure(token: Token) -> bool:
    """A number that states a quantity ("3000 members", "40 percent", "$5 billion"); not
    a date, an ordinal or "one"."""
    if token.ent_type_ in ("DATE", "TIME", "ORDINAL"):
        return False
    if token.ent_type_ in ("PERCENT", "MONEY", "QUANTITY"):
        return True
    if token.lower_ in MAGNITUDES:
        return True
    if not token.like_num or not any(ch.isdigit() for ch in token.text):
        return False
    # "the crew gets 3": a small count is an example, not a statistic to source
    digits = re.sub(r"[^\d.]", "", token.text).strip(".")
    try:
        return float(digits) >= 10
    except ValueError:
        return False
