"""What reading a text gives: its claims, each restated so a question can carry it, and
the text's speaker (``maieutic.language.claims`` finds them)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, kw_only=True)
class Claim:
    """One clause of a text, restated so a question can carry it."""

    text: str
    """The clause as a declarative that reads after "that" (no final punctuation)."""
    kinds: tuple[str, ...]
    """The kinds of claim it makes (see ``KINDS``), most specific first."""
    sentence: int
    """Index of its sentence in the text."""
    source: str
    """The sentence it comes from, as written."""
    tense: str
    """``past``, ``present``, ``future`` (will, going to, could, may, might) or
    ``possible`` (would, can: a stance or an ability more often than a forecast)."""
    action: str = ""
    """For a proposal: what is proposed, in the base form ("ban cars from the centre")."""
    cause: str = ""
    effect: str = ""
    """For a causal claim made of two clauses: each restated."""
    person: str = ""
    """For an attack: the person attacked."""
    authority: str = ""
    """For an appeal to authority: who is appealed to ("the DOJ", "the speaker")."""
    terms: tuple[str, ...] = ()
    """Noun phrases of the clause a reader might ask to have defined."""
    lemmas: tuple[str, ...] = ()
    """Its content words, lemmatised and lower-cased (no stop words, no "I")."""
    words: str = ""
    """The clause in the speaker's own words (no rewriting), to find it in the text."""
    stance: bool = False
    """The speaker stating their own view or wish ("I would support a ban", "I want…"):
    asking for evidence of it challenges nothing."""
    hedged: bool = False
    """The speaker hedged it ("maybe", "probably"): restated without the hedge, which
    the question carries instead."""
    answered: bool = False
    """Said in the message a forum reply answers, not by the speaker: the reply argues
    with it, so it is worth a question, but never one that names the speaker."""
    features: dict[str, float] = field(default_factory=dict, compare=False)
    """Numeric description used to rank claims (by a model a task trains on them)."""

    @property
    def kind(self) -> str:
        """The most specific kind."""
        return self.kinds[0]


@dataclass(frozen=True, kw_only=True)
class Reading:
    """A text's speaker and claims."""

    speaker: str
    """How questions name the speaker ("Clinton", "the speaker")."""
    speaker_label: str
    """The label as written ("CLINTON", "JetJock"), or ""."""
    claims: tuple[Claim, ...]
    n_sentences: int
    key_phrases: tuple[str, ...] = ()
    """The text's key concepts as noun phrases, for questions of definition when its
    claims give too few questions."""
