"""Whether a text argues at all, or only states facts.

An argument takes a stance somewhere: a person speaks ("I", "we", "you"), something
should or must be done, something is better, worse, fair or wrong, a reason is given
("because", "therefore") or a view is weighed ("but", "however"). An encyclopedia
passage says almost none of this. The share of a text's words that do is the measure;
below ``STATES_FACTS_BELOW`` the text is taken to state facts, and a critical question
about it would ask for evidence of a birth date or a song's credits.

A speaker's turn in a debate ("JetJock: \"Yes, most airlines pay…\"", the layout of the
benchmark's interventions) argues whatever its words: said in reply to someone, a
recital of facts is a claim against theirs. On the development texts all 148 debate
interventions open so and none of the 100 encyclopedia passages does; the stance share
alone took 4 of the turns for facts (the two of them outside every held-out set have
references people labelled Useful 13 times of 15 and 14 of 21: issue 59).

The threshold was chosen on the development texts rated for issue 47
(``benchmarks/rating/r47``): of the texts of at least ``MIN_WORDS`` words, below 0.02
fall 79 of 84 encyclopedia passages and 3 of 189 debate and essay texts; the claims
generator's 215 questions on them were rated Useful 4 times (the two raters averaged),
its 502 on the other texts 197.5 times.
"""

from __future__ import annotations

import re

from maieutic.language.word_lists import words

STANCE_WORDS = words(
    """i, i'm, i've, me, my, we, our, us, you, your, should, shouldn't, must, ought,
    need to, needs to, have to, has to, better, worse, best, worst, believe, think,
    opinion, agree, disagree, important, necessary, wrong, right, unfair, fair, benefit,
    harm, problem, because, therefore, so that, however, but"""
)
"""Words and phrases that take a stance (matched whole, any case)."""
STATES_FACTS_BELOW = 0.02
"""The share of stance words under which a text is taken to state facts."""
MIN_WORDS = 30
"""Shorter texts are not judged: a share of a sentence or two says little."""

_LONGEST_FIRST = sorted(STANCE_WORDS, key=lambda w: (-len(w), w))
_STANCE = re.compile(r"\b(?:" + "|".join(map(re.escape, _LONGEST_FIRST)) + r")\b", re.I)


def stance_share(text: str) -> float:
    """Stance words and phrases per word of ``text``."""
    return len(_STANCE.findall(text)) / max(len(text.split()), 1)


_TURN = re.compile(r"^\s*([^\s:\"“\n][^:\"“\n]{0,39}?)\s*:\s*[\"“]")
"""A speaker's label, a colon and an opening quotation mark, at the text's start."""


def speaker_turn(text: str) -> bool:
    """Whether ``text`` is a speaker's turn in a debate: it opens with a label of at most
    three words, a colon and a quotation (``CLINTON: "…``)."""
    found = _TURN.match(text)
    return found is not None and len(found.group(1).split()) <= 3


def states_facts(text: str) -> bool:
    """Whether ``text`` argues for nothing: at least ``MIN_WORDS`` words,
    ``stance_share`` under the threshold, and no speaker's turn in a debate."""
    return (
        len(text.split()) >= MIN_WORDS
        and stance_share(text) < STATES_FACTS_BELOW
        and not speaker_turn(text)
    )
