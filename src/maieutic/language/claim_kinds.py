"""The kinds of claim a clause makes, and the features the claim ranker reads.

Kinds follow what critical questions probe (statistics, causes, generalisations,
predictions, proposals, appeals to an expert or to experience, analogies, attacks on
a person, value judgements); each is recognised from the clause's words and syntax.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from maieutic.language.clause_syntax import (
    modal_action,
    subject_of,
    tense_of,
)
from maieutic.language.figures import is_figure
from maieutic.language.restate import render
from maieutic.language.word_lists import words

if TYPE_CHECKING:  # spaCy (and through it torch) loads only when a parser runs
    from spacy.tokens import Span, Token

KINDS = (
    "inference",
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


QUANTIFIERS = words(
    """all, every, everyone, everybody, everything, always, never, nobody, none, nothing,
    no one, anyone, anybody, each, entire, whole"""
)


CAUSAL_VERBS = {"cause", "lead", "result", "produce", "trigger"}


CAUSAL_MARKS = {"because", "since", "as", "so"}


EXPERT_WORDS = words(
    """expert, experts, scientist, scientists, doctor, doctors, physician, professor,
    study, studies, research, researchers, survey, report, data, statistics, according,
    economist, economists, evidence, poll, polls"""
)


EXPERIENCE = re.compile(
    r"\b(?:i've seen|i have seen|i've heard|i have heard|i know (?:people|someone|many)|"
    r"in my experience|my (?:son|daughter|child|children|kid|kids|friend|friends|husband|wife|"
    r"family|mother|father|mom|dad)|i (?:saw|experienced|witnessed|met|grew up))\b",
    re.IGNORECASE,
)


ANALOGY = re.compile(
    r"\b(?:just like|just as|like a|like the|similar to|the same as|no different (?:from|than)|"
    r"compared to|comparable to|equivalent to|akin to|"
    r"(?:better|worse|more|less|fewer|safer|cheaper|higher|lower|bigger|smaller) "
    r"(?:\w+ ){0,4}than)\b",
    re.IGNORECASE,
)


NEGATIVE = words(
    """liar, lie, lied, lying, corrupt, incompetent, stupid, idiot, insult, insulted,
    dismissive, disgrace, disaster, failed, fail, weak, dishonest, crook, racist,
    hypocrite, hypocritical, ignorant, terrible, horrible, dangerous, unfit, crooked,
    nasty, rude, selfish, greedy, lazy"""
)


EVALUATIVE = words(
    """good, bad, right, wrong, fair, unfair, best, worst, better, worse, important,
    necessary, essential, dangerous, safe, unsafe, great, terrible, ridiculous, absurd,
    moral, immoral, acceptable, unacceptable, enough, effective, ineffective,
    reasonable, unreasonable, wise, foolish, harmful, wonderful, excellent, terrific,
    awful, horrible, disgraceful, outrageous, brilliant, smart, stupid, crazy, shameful,
    appalling, perfect, fantastic, unjust, just, irresponsible, responsible, pointless,
    useless, worthless"""
)


PRONOUN_SUBJECTS = words("it, this, that, they, them, these, those, he, she, which, who, there")


def evaluates(head: Token) -> bool:
    """Whether the clause's predicate is a value judgement ("X is wrong", "it's time
    that…", "that's not good judgment"), not merely a clause with "good" in it."""
    if head.lemma_.lower() in EVALUATIVE:
        return True
    for child in head.children:
        if child.dep_ not in ("acomp", "attr", "oprd"):
            continue
        if child.lower_ in EVALUATIVE or any(
            g.dep_ == "amod" and g.lower_ in EVALUATIVE for g in child.children
        ):
            return True
    return False


PERMISSION_VERBS = words(
    """permit, allow, entitle, forbid, prohibit, require, oblige, authorize, authorise,
    grant"""
)
"""Verbs of a rule: "everyone is permitted to copy" grants a right, it does not describe
everyone, so it is no generalisation to test case by case."""


def _generalises(head: Token) -> bool:
    """A claim about all or none of something: a quantified subject ("nobody proposes…",
    "every parent agrees") or an absolute adverb ("they always…"); "I voted for every
    sanction" counts something, it does not generalise, and a rule ("everyone is
    permitted to…") grants or requires rather than describes."""
    if head.lemma_.lower() in PERMISSION_VERBS:
        return False
    subject = subject_of(head)
    if subject is not None and any(t.lower_ in QUANTIFIERS for t in subject.subtree):
        return True
    if (subject is not None and subject.lower_ in ("no", "one")) or re.match(
        r"no one\b", subject.text if subject is not None else "", re.I
    ):
        return True
    return any(
        c.dep_ in ("advmod", "neg") and c.lower_ in ("always", "never") for c in head.children
    )


def claim_kinds(head: Token, tokens: list[Token], sentence: Span, *, text: str) -> list[str]:
    """The kinds of claim a clause makes, most specific first (``assertion`` last)."""
    lowered = {t.lower_ for t in tokens}
    lemmas = {t.lemma_.lower() for t in tokens}
    kinds: list[str] = []
    if any(is_figure(t) for t in tokens):
        kinds.append("statistic")
    verbs = [head, *(c for c in head.children if c.dep_ == "xcomp")]
    if any(v.pos_ == "VERB" and v.lemma_ in CAUSAL_VERBS for v in verbs):
        kinds.append("causal")
    if re.search(r"\b(?:because|due to|as a result|that's why|which means)\b", text, re.I):
        kinds.append("causal")
    if _generalises(head):
        kinds.append("generalisation")
    tense = tense_of(head)
    if tense == "future":
        kinds.append("prediction")
    if modal_action(head):
        kinds.append("proposal")
    if lowered & EXPERT_WORDS or head.lemma_ in ("find", "determine", "conclude", "report"):
        kinds.append("authority")
    if EXPERIENCE.search(sentence.text):
        kinds.append("experience")
    if ANALOGY.search(text):
        kinds.append("analogy")
    subject = subject_of(head)
    attacked = attacked_person(subject)
    if attacked and (lemmas & NEGATIVE or lowered & NEGATIVE):
        kinds.append("attack")
    if evaluates(head):
        kinds.append("evaluation")
    if tense == "possible" and "prediction" not in kinds:
        kinds.append("prediction")
    kinds.append("assertion")
    return list(dict.fromkeys(kinds))


def attacked_person(subject: Token | None) -> str:
    """The named person a clause is about, when its subject names one."""
    if subject is None:
        return ""
    if subject.ent_type_ == "PERSON" or (subject.pos_ == "PROPN" and subject.text[0].isupper()):
        span = [t for t in subject.subtree]
        return " ".join(t.text for t in span)
    if subject.lower_ in ("he", "she", "you"):
        return ""  # unresolved: no name to restate
    return ""


def defining_terms(tokens: list[Token], sentence: Span) -> tuple[str, ...]:
    """Noun phrases a reader could ask to have pinned down: quoted words, and noun
    phrases with an evaluative or vague modifier ("fair share", "common sense gun
    solutions")."""
    ids = {t.i for t in tokens}
    out = []
    for chunk in sentence.noun_chunks:
        if not all(t.i in ids for t in chunk) or chunk.root.pos_ == "PRON":
            continue
        words = [t for t in chunk if t.dep_ not in ("det", "poss") and not t.is_punct]
        if not 2 <= len(words) <= 5 or chunk.root.lower_ in EMPTY_HEADS:
            continue
        vague = any(t.lower_ in VAGUE for t in words if t.pos_ in ("ADJ", "NOUN"))
        if vague:
            out.append(render(words))
    return tuple(dict.fromkeys(out))


_CLASSIFYING = re.compile(r"(?:al|ic|ary|an|ese|ish|ar|ed|ing|ous)$")
_NOT_JUDGING = words(
    """same, other, different, many, several, more, most, such, certain, own, new, old,
    last, next, first, few, much, whole, entire, little, main, total, small, large, big,
    long, high, low, full, general, current, recent, public, private"""
)


def _judging(token: Token) -> bool:
    """An adjective that judges ("cavalier", "toughest", "fair", "secret"), not one that
    classifies ("nuclear", "federal", "financial") or counts ("more", "same")."""
    if token.dep_ != "amod" or token.pos_ != "ADJ" or token.lower_ in _NOT_JUDGING:
        return False
    return token.tag_ in ("JJR", "JJS") or not _CLASSIFYING.search(token.lower_)


def key_phrases(docs, limit: int = 3) -> tuple[str, ...]:
    """The text's key concepts as noun phrases ("cavalier attitude about nuclear
    weapons", "the Trump loophole"): a modified noun of 2-5 words, not a name, not a
    pronoun, not a figure, from a sentence that asserts; those whose words recur in the
    text come first, then the longer."""
    counts: dict[str, int] = {}
    for doc in docs:
        for t in doc:
            if t.is_alpha and not t.is_stop:
                counts[t.lemma_.lower()] = counts.get(t.lemma_.lower(), 0) + 1
    found: dict[str, float] = {}
    for doc in docs:
        for sentence in doc.sents:
            if sentence.text.rstrip().endswith("?"):
                continue
            for chunk in sentence.noun_chunks:
                words = [t for t in chunk if t.dep_ not in ("det", "poss")]
                while words and words[0].is_punct:
                    words = words[1:]
                content = [t for t in words if not t.is_punct]
                if not 2 <= len(content) <= 5 or chunk.root.lower_ in EMPTY_HEADS:
                    continue
                if any(
                    t.pos_ in ("PRON", "PROPN", "NUM", "PART")
                    or t.ent_type_
                    or t.like_num
                    or t.text.isupper()
                    or t.dep_ == "case"
                    for t in words
                ):
                    continue
                if not any(_judging(t) for t in content) or any(
                    t.text in "\"“”'‘’" or t.pos_ == "ADV" for t in words
                ):
                    continue
                phrase = render(words)
                recurring = sum(counts.get(t.lemma_.lower(), 0) > 1 for t in words)
                found.setdefault(phrase, recurring + len(words) / 10)
    ranked = sorted(found, key=lambda p: -found[p])
    return tuple(ranked[:limit])


EMPTY_HEADS = words(
    """one, sort, kind, lot, deal, part, bit, way, thing, things, type, lots, number,
    amount, couple"""
)


VAGUE = words(
    """fair, sense, real, proper, reasonable, appropriate, affordable, decent, normal,
    natural, extreme, radical, mainstream, excessive, adequate, sufficient, meaningful,
    legitimate, unnecessary, unreasonable, unfair"""
)
"""Words whose meaning depends on who judges: a phrase built on one is worth defining."""

LOADED = words(
    """cavalier, reckless, rigged, corrupt, crooked, secret, disastrous, terrible,
    horrible, ridiculous, absurd, massive, tremendous, huge, enormous, tough, toughest,
    strong, strongest, weak, smart, stupid, dangerous, failed, failing, broken, bad,
    worst, best, great, greatest, true, wrong, right, unfair, fair, common, serious,
    safe"""
)
"""Charged words a speaker leans on: what they mean here is often the point at issue."""


def contested(phrase: str) -> bool:
    """Whether a noun phrase is worth a question of definition: one of its words judges
    (its meaning depends on who uses it), rather than naming something any reader knows
    ("short-term", "regulatory action", "enough money" are clear)."""
    words = {w.strip(".,'\"").lower() for w in phrase.replace("-", " ").split()}
    return bool(words & (VAGUE | LOADED))


STANCE = words(
    """support, want, hope, like, love, hate, believe, think, feel, agree, prefer, wish,
    oppose, favor, favour, urge, ask, need"""
)


def clause_features(
    head: Token, *, subject: Token, tokens: list[Token], kinds: list[str], sentence_index: int
) -> dict[str, float]:
    alpha = [t for t in tokens if t.is_alpha]
    content = [t for t in alpha if not t.is_stop]
    return {
        **{f"kind_{k}": float(k in kinds) for k in KINDS},
        "n_words": float(len(alpha)),
        "n_content": float(len(content)),
        "subject_pronoun": float(subject.lower_ in PRONOUN_SUBJECTS),
        "subject_first_person": float(subject.lower_ in ("i", "we")),
        "subject_second_person": float(subject.lower_ == "you"),
        "subject_entity": float(bool(subject.ent_type_) or subject.pos_ == "PROPN"),
        "has_entity": float(any(t.ent_type_ for t in tokens)),
        "negated": float(any(t.dep_ == "neg" for t in tokens)),
        "second_person": float(any(t.lower_ in ("you", "your") for t in tokens)),
        "is_root": float(head.dep_ == "ROOT"),
        "reported": float(head.dep_ == "ccomp"),
        "position": float(sentence_index),
    }
