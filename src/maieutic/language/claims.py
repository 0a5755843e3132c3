"""What a text claims, read from its syntax: each clause worth a question, restated in
full, with the kind of claim it makes.

A clause is a finite verb with its subject (imperatives, questions and fragments are
not claims). Clauses are taken from each sentence's root, from clauses coordinated
with it, from what a reporting verb reports ("I think X", "that means X", "the study
found X") and from causal and conditional subordinate clauses. Each is restated by
:mod:`maieutic.language.restate` and tagged with the kinds of claim that critical
questions probe: statistics, causes, generalisations, predictions, proposals, appeals
to an expert or to experience, analogies, attacks on a person, value judgements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from spacy.tokens import Doc, Span, Token

from maieutic.language import syntax
from maieutic.language.restate import (
    first_person_rewrites,
    lower_first,
    render,
    speaker_reference,
)

KINDS = (
    "statistic",
    "causal",
    "generalisation",
    "prediction",
    "proposal",
    "authority",
    "experience",
    "analogy",
    "attack",
    "evaluation",
    "assertion",
)
_REPORTING = {
    "think", "believe", "say", "mean", "know", "feel", "guess", "suppose", "argue",
    "claim", "agree", "hope", "understand", "suggest", "show", "prove", "find", "determine",
    "conclude", "report", "state", "tell", "realize", "realise", "assume", "doubt", "bet",
}  # fmt: skip
_OBLIGATION = {"should", "must", "ought"}
_NEED_VERBS = {"need", "have"}  # need to / have to ("'ve got to": lemma "get")
_FUTURE = {"will", "'ll", "wo", "shall"}
_POSSIBLE = {"could", "may", "might", "would", "can", "ca"}
_QUANTIFIERS = {
    "all", "every", "everyone", "everybody", "everything", "always", "never", "nobody",
    "none", "nothing", "no one", "anyone", "anybody", "each", "entire", "whole",
}  # fmt: skip
_CAUSAL_VERBS = {"cause", "lead", "result", "create", "produce", "destroy", "kill", "make",
                 "help", "prevent", "reduce", "increase", "drive", "force", "hurt"}  # fmt: skip
_CAUSAL_MARKS = {"because", "since", "as", "so"}
_EXPERT_WORDS = {
    "expert", "experts", "scientist", "scientists", "doctor", "doctors", "physician",
    "professor", "study", "studies", "research", "researchers", "survey", "report", "data",
    "statistics", "according", "economist", "economists", "evidence", "poll", "polls",
}  # fmt: skip
_EXPERIENCE = re.compile(
    r"\b(?:i've seen|i have seen|i've heard|i have heard|i know (?:people|someone|many)|"
    r"in my experience|my (?:son|daughter|child|children|kid|kids|friend|friends|husband|wife|"
    r"family|mother|father|mom|dad)|i (?:saw|experienced|witnessed|met|grew up))\b",
    re.IGNORECASE,
)
_ANALOGY = re.compile(
    r"\b(?:just like|just as|like a|like the|similar to|the same as|no different (?:from|than)|"
    r"compared to|comparable to|equivalent to|akin to)\b",
    re.IGNORECASE,
)
_NEGATIVE = {
    "liar", "lie", "lied", "lying", "corrupt", "incompetent", "stupid", "idiot", "insult",
    "insulted", "dismissive", "disgrace", "disaster", "failed", "fail", "weak", "dishonest",
    "crook", "racist", "hypocrite", "hypocritical", "ignorant", "terrible", "horrible",
    "dangerous", "unfit", "crooked", "nasty", "rude", "selfish", "greedy", "lazy",
}  # fmt: skip
_EVALUATIVE = {
    "good", "bad", "right", "wrong", "fair", "unfair", "best", "worst", "better", "worse",
    "important", "necessary", "essential", "dangerous", "safe", "unsafe", "great", "terrible",
    "ridiculous", "absurd", "moral", "immoral", "acceptable", "unacceptable", "enough",
    "effective", "ineffective", "reasonable", "unreasonable", "wise", "foolish", "harmful",
}  # fmt: skip
_DISCOURSE = {"well", "look", "now", "so", "again", "frankly", "honestly", "actually", "also",
              "anyway", "and", "but", "or", "then", "oh", "yes", "no", "okay", "ok", "plus",
              "however", "still", "yet", "because", "though", "although"}  # fmt: skip
_SELF_OR_ANAPHOR = {"i", "we", "you", "that", "this", "it", "he", "she", "they"}
_LEADING_PHRASE = re.compile(
    r"^(?:(?:in fact|of course|you know|i mean|by the way|in other words|believe me|"
    r"to be honest|at the end of the day|the fact is|let me tell you|"
    r"first(?:ly)?|second(?:ly)?|finally|again|look|listen)\s*,?\s+)+",
    re.IGNORECASE,
)
_PRONOUN_SUBJECTS = {"it", "this", "that", "they", "them", "these", "those", "he", "she",
                     "which", "who", "there"}  # fmt: skip


@dataclass(frozen=True)
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
    """``past``, ``present``, ``future`` (will, going to) or ``possible`` (could, may…)."""
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
    features: dict[str, float] = field(default_factory=dict, compare=False)
    """Numeric description used to rank claims (see ``maieutic.tasks.cqs.claim_ranker``)."""

    @property
    def kind(self) -> str:
        """The most specific kind."""
        return self.kinds[0]


@dataclass(frozen=True)
class Reading:
    """A text's speaker and claims."""

    speaker: str
    """How questions name the speaker ("Clinton", "the speaker")."""
    speaker_label: str
    """The label as written ("CLINTON", "JetJock"), or ""."""
    claims: tuple[Claim, ...]
    n_sentences: int


def _subject(head: Token) -> Token | None:
    return next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass", "expl")), None)


def _is_finite(head: Token) -> bool:
    if head.tag_ in ("VBD", "VBZ", "VBP", "MD"):
        return True
    return any(c.dep_ in ("aux", "auxpass") and c.tag_ in ("VBD", "VBZ", "VBP", "MD")
               for c in head.children)  # fmt: skip


def _tense(head: Token) -> str:
    auxes = [c for c in head.children if c.dep_ in ("aux", "auxpass")]
    words = {a.lower_.replace("’", "'") for a in auxes}
    if words & _FUTURE or ("going" in words and any(c.lower_ == "to" for c in head.children)):
        return "future"
    if head.lower_ == "going" and any(c.dep_ == "xcomp" for c in head.children):
        return "future"
    if words & _POSSIBLE:
        return "possible"
    if _modal_action(head) is not None:
        return "present"  # an obligation ("we've got to go") is about now and later
    tags = {head.tag_} | {a.tag_ for a in auxes}
    if "VBD" in tags or (head.tag_ == "VBN" and words & {"has", "have", "'ve", "had", "'d"}):
        return "past"
    return "present"


def _block(token: Token) -> set[int]:
    """A subtree to leave out, with the comma that set it off."""
    left, right = token.left_edge.i, token.right_edge.i
    doc = token.doc
    ids = set(range(left, right + 1))
    if right + 1 < len(doc) and doc[right + 1].text == ",":
        ids.add(right + 1)
    elif left > 0 and doc[left - 1].text == ",":
        ids.add(left - 1)
    return ids


def _is_aside(token: Token) -> bool:
    """A parenthetical aside: "as you know", "I think", "you see"."""
    subject = _subject(token)
    marked_as = any(g.dep_ == "mark" and g.lower_ == "as" for g in token.children)
    return (token.dep_ == "advcl" and marked_as) or (
        token.dep_ == "parataxis" and subject is not None and subject.lower_ in ("i", "you")
    )


def _excluded(head: Token, split: set[int]) -> set[int]:
    """Token indexes to leave out of ``head``'s clause: clauses split off on their own,
    and parenthetical asides ("as you know")."""
    out: set[int] = set()
    for token in head.subtree:
        if token == head:
            continue
        if token.i in split or _is_aside(token) or token.dep_ == "parataxis":
            out |= _block(token)
    return out


def _trim(tokens: list[Token]) -> list[Token]:
    """Drop leading connectives, discourse words and punctuation; trailing punctuation."""
    while tokens and (
        tokens[0].is_punct
        or tokens[0].dep_ in ("cc", "mark", "intj", "discourse", "preconj")
        or (tokens[0].lower_ in _DISCOURSE and tokens[0].dep_ in ("advmod", "cc", "intj"))
    ):
        tokens = tokens[1:]
    while tokens and (
        tokens[-1].is_punct or tokens[-1].dep_ == "cc" or tokens[-1].lower_ in ("though", "too")
    ):
        tokens = tokens[:-1]
    # a vocative at the end: "…, Donald"
    if len(tokens) > 3 and tokens[-2].text == "," and tokens[-1].ent_type_ == "PERSON":
        tokens = tokens[:-2]
    return tokens


@dataclass
class _Context:
    speaker: str
    sentence_index: int
    sentence: Span


MAX_CLAUSE_WORDS = 30
"""Longer clauses lose trailing modifiers (relative and adverbial clauses, then
prepositional phrases) until they fit; a question restating more is hard to read."""
_OPTIONAL = ("relcl", "advcl", "acl", "prep", "appos", "npadvmod", "advmod")


def _clause_tokens(head: Token, split: set[int]) -> list[Token]:
    excluded = _excluded(head, split)
    tokens = _trim([t for t in head.subtree if t.i not in excluded])
    for dep in _OPTIONAL:
        if sum(t.is_alpha for t in tokens) <= MAX_CLAUSE_WORDS:
            break
        for token in reversed(tokens):
            if token.dep_ == dep and token.i > head.i and token.head.i >= head.i:
                excluded |= _block(token)
                tokens = _trim([t for t in head.subtree if t.i not in excluded])
                if sum(t.is_alpha for t in tokens) <= MAX_CLAUSE_WORDS:
                    break
    return tokens


def _modal_action(head: Token) -> tuple[str, list[Token]] | None:
    """For "we should ban X" / "we've got to work with X" / "we need to do Y": the kind
    of obligation and the tokens of the proposed action (base form)."""
    auxes = {c.lower_ for c in head.children if c.dep_ == "aux"}
    if auxes & _OBLIGATION and head.tag_ == "VB":
        if any(c.dep_ == "neg" for c in head.children):
            return None  # "we should not X": a proposal to refrain, restated poorly
        return "modal", [t for t in head.subtree if t.dep_ not in ("nsubj", "aux", "neg")
                         or t.head != head]  # fmt: skip
    if head.lemma_ in _NEED_VERBS or (head.lemma_ == "get" and "to" in {
        g.lower_ for c in head.children if c.dep_ == "xcomp" for g in c.children
    }):  # fmt: skip
        xcomp = next((c for c in head.children if c.dep_ == "xcomp" and c.tag_ == "VB"), None)
        if xcomp is not None and any(c.lower_ == "to" for c in xcomp.children):
            tokens = [t for t in xcomp.subtree if not (t.head == xcomp and t.dep_ == "aux")]
            return "need", tokens
    return None


def _action_text(tokens: list[Token], ctx: _Context) -> str:
    tokens = _trim(tokens)
    return render(tokens, first_person_rewrites(tokens, ctx.speaker)) if tokens else ""


def _starts_well(tokens: list[Token], subject: Token) -> bool:
    """A clause opens with its subject, or with an adverb or a prepositional phrase
    before it ("in 2008, we…"); not with a fronted object, a subordinator or "the more"."""
    start = subject.left_edge.i
    for token in tokens:
        if token.i >= start:
            return True
        if token.tag_ in ("WRB", "WDT", "WP", "JJR", "RBR") or token.dep_ in ("dobj", "mark"):
            return False
        if token.dep_ not in ("advmod", "prep", "pobj", "det", "amod", "compound", "punct",
                              "nummod", "npadvmod", "pcomp", "poss", "case", "cc"):
            return False  # fmt: skip
    return True


def _kinds(head: Token, tokens: list[Token], ctx: _Context, text: str) -> list[str]:
    lowered = {t.lower_ for t in tokens}
    lemmas = {t.lemma_.lower() for t in tokens}
    kinds: list[str] = []
    if any(_is_figure(t) for t in tokens):
        kinds.append("statistic")
    if lemmas & _CAUSAL_VERBS and any(t.dep_ in ("dobj", "prep", "xcomp", "ccomp")
                                      for t in head.children):  # fmt: skip
        kinds.append("causal")
    if re.search(r"\b(?:because|due to|as a result|that's why|which means)\b", text, re.I):
        kinds.append("causal")
    if lowered & _QUANTIFIERS or re.search(r"\bno one\b", text, re.I):
        kinds.append("generalisation")
    tense = _tense(head)
    if tense == "future":
        kinds.append("prediction")
    if _modal_action(head):
        kinds.append("proposal")
    if lowered & _EXPERT_WORDS or head.lemma_ in ("find", "determine", "conclude", "report"):
        kinds.append("authority")
    if _EXPERIENCE.search(ctx.sentence.text):
        kinds.append("experience")
    if _ANALOGY.search(text):
        kinds.append("analogy")
    subject = _subject(head)
    attacked = _attacked_person(subject, ctx)
    if attacked and (lemmas & _NEGATIVE or lowered & _NEGATIVE):
        kinds.append("attack")
    if lowered & _EVALUATIVE:
        kinds.append("evaluation")
    if tense == "possible" and "prediction" not in kinds:
        kinds.append("prediction")
    kinds.append("assertion")
    return list(dict.fromkeys(kinds))


def _is_figure(token: Token) -> bool:
    """A number that states a quantity ("3000 members", "40 percent", "$5 billion"); not
    a date, an ordinal or "one"."""
    if token.ent_type_ in ("DATE", "TIME", "ORDINAL"):
        return False
    if token.ent_type_ in ("PERCENT", "MONEY", "QUANTITY"):
        return True
    return token.like_num and token.lower_ not in ("one", "a") and token.ent_type_ == "CARDINAL"


def _attacked_person(subject: Token | None, ctx: _Context) -> str:
    if subject is None:
        return ""
    if subject.ent_type_ == "PERSON" or (subject.pos_ == "PROPN" and subject.text[0].isupper()):
        span = [t for t in subject.subtree]
        return " ".join(t.text for t in span)
    if subject.lower_ in ("he", "she", "you"):
        return ""  # unresolved: no name to restate
    return ""


def _terms(tokens: list[Token], sentence: Span) -> tuple[str, ...]:
    """Noun phrases a reader could ask to have pinned down: quoted words, and noun
    phrases with an evaluative or vague modifier ("fair share", "common sense gun
    solutions")."""
    ids = {t.i for t in tokens}
    out = []
    for chunk in sentence.noun_chunks:
        if not all(t.i in ids for t in chunk) or chunk.root.pos_ == "PRON":
            continue
        words = [t for t in chunk if t.dep_ not in ("det", "poss") and not t.is_punct]
        if not 1 <= len(words) <= 5:
            continue
        vague = any(
            t.pos_ == "ADJ" and (t.lower_ in _EVALUATIVE or t.lower_ in _VAGUE) for t in words
        ) or any(t.lower_ in _VAGUE for t in words)
        if vague:
            out.append(render(words))
    return tuple(dict.fromkeys(out))


_VAGUE = {
    "fair", "common", "sense", "real", "true", "proper", "reasonable", "appropriate",
    "affordable", "serious", "strong", "weak", "normal", "natural", "basic", "fundamental",
    "extreme", "radical", "rich", "poor", "wealthy", "elite", "mainstream", "free", "freedom",
    "responsibility", "values", "decent", "safe", "security", "quality", "success",
}  # fmt: skip


def _claim(head: Token, ctx: _Context, split: set[int]) -> Claim | None:
    subject = _subject(head)
    if subject is None or not _is_finite(head):
        return None
    if subject.tag_ in ("WDT", "WP", "WP$") or subject.dep_ == "expl" and head.lemma_ != "be":
        return None  # a relative clause's "which"/"who" needs its antecedent
    tokens = _clause_tokens(head, split)
    if len([t for t in tokens if t.is_alpha]) < 3 or tokens[0].i > subject.i:
        return None
    if not _starts_well(tokens, subject):
        return None  # "when we…", "some of them I voted for", "the more you help…"
    rewrites = first_person_rewrites(tokens, ctx.speaker)
    first = tokens[0] if tokens[0].i not in rewrites else None
    text = _LEADING_PHRASE.sub("", render(tokens, rewrites))
    text = lower_first(text, first) if text else text
    if not text or len(text.split()) < 3:
        return None
    kinds = _kinds(head, tokens, ctx, text)
    action = ""
    if found := _modal_action(head):
        action = _action_text(found[1], ctx)
        if len(action.split()) < 2:
            action = ""  # "Bernie should know": too little to ask about
    features = _features(head, subject, tokens, kinds, ctx)
    authority = ""
    if "authority" in kinds:
        authority = render(list(subject.subtree), first_person_rewrites(subject.subtree, ctx.speaker))
    return Claim(
        text=text,
        kinds=tuple(kinds),
        sentence=ctx.sentence_index,
        source=ctx.sentence.text,
        tense=_tense(head),
        action=action,
        person=_attacked_person(subject, ctx),
        authority=authority,
        terms=_terms(tokens, ctx.sentence),
        features=features,
    )


def _features(
    head: Token, subject: Token, tokens: list[Token], kinds: list[str], ctx: _Context
) -> dict[str, float]:
    alpha = [t for t in tokens if t.is_alpha]
    content = [t for t in alpha if not t.is_stop]
    return {
        **{f"kind_{k}": float(k in kinds) for k in KINDS},
        "n_words": float(len(alpha)),
        "n_content": float(len(content)),
        "subject_pronoun": float(subject.lower_ in _PRONOUN_SUBJECTS),
        "subject_first_person": float(subject.lower_ in ("i", "we")),
        "subject_second_person": float(subject.lower_ == "you"),
        "subject_entity": float(bool(subject.ent_type_) or subject.pos_ == "PROPN"),
        "has_entity": float(any(t.ent_type_ for t in tokens)),
        "negated": float(any(t.dep_ == "neg" for t in tokens)),
        "second_person": float(any(t.lower_ in ("you", "your") for t in tokens)),
        "is_root": float(head.dep_ == "ROOT"),
        "reported": float(head.dep_ == "ccomp"),
        "position": float(ctx.sentence_index),
    }


def _split_points(sentence: Span) -> set[int]:
    """Heads of clauses that stand on their own within a sentence: coordinated clauses
    with their own subject, and reported clauses."""
    split = set()
    for token in sentence:
        if token.dep_ == "conj" and _subject(token) is not None and token.head.pos_ in (
            "VERB", "AUX"
        ):  # fmt: skip
            split.add(token.i)
        elif token.dep_ == "ccomp" and token.head.lemma_ in _REPORTING and _subject(token):
            split.add(token.i)
        elif token.dep_ == "advcl" and _subject(token) is not None and any(
            c.dep_ == "mark" and c.lower_ in ("because", "since", "although", "though", "whereas")
            for c in token.children
        ):
            split.add(token.i)
    return split


def _sentence_claims(sentence: Span, ctx: _Context) -> list[Claim]:
    if sentence.text.rstrip().endswith("?"):
        return []  # a question asks; it claims nothing to challenge
    split = _split_points(sentence)
    heads = [sentence.root, *(sentence.doc[i] for i in sorted(split))]
    out = []
    for head in heads:
        reported = {c.i for c in head.children if c.i in split and c.dep_ == "ccomp"}
        subject = _subject(head)
        if reported and head.lemma_ in _REPORTING:
            # "I think X" / "that means X": X is the claim, not the reporting; "the study
            # found that X" is a claim about the study too, restated with what it found
            if subject is None or subject.lower_ in _SELF_OR_ANAPHOR:
                continue
            own_split = split - reported
        else:
            own_split = split
        if claim := _claim(head, ctx, own_split):
            out.append(claim)
    return out


def read_claims(text: str) -> Reading:
    """The speaker and the claims of ``text``, sentence by sentence."""
    label, body, _ = syntax.split_speaker(text)
    speaker = speaker_reference(label) if label else "the speaker"
    docs = syntax.parse([syntax.normalise(c) for c in syntax.sentence_chunks(body)])
    claims: list[Claim] = []
    n = 0
    for doc in docs:
        for sentence in doc.sents:
            ctx = _Context(speaker, n, sentence)
            claims.extend(_sentence_claims(sentence, ctx))
            n += 1
    return Reading(speaker, label, tuple(claims), n)


def parse_one(text: str) -> Doc:
    """One text parsed (tests and the well-formedness check use it)."""
    return syntax.parse([text])[0]
