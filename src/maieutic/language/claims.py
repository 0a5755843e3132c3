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

from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from maieutic.language import syntax
from maieutic.language.antecedents import resolve
from maieutic.language.claim import Claim, Reading
from maieutic.language.claim_kinds import (
    attacked_person,
    claim_kinds,
    clause_features,
    defining_terms,
    key_phrases,
)
from maieutic.language.clause_checks import (
    copied_errors,
    hedged,
    lifted_hedges,
    reads_as_clause,
    unclear_reference,
    unhedge,
)
from maieutic.language.clause_syntax import (
    AFFIRMING,
    LEADING_PHRASE,
    MAX_CLAUSE_WORDS,
    SELF_OR_ANAPHOR,
    SUBJECTS,
    UNRESOLVED,
    clause_tokens,
    content_lemmas,
    extraposed,
    fronted_condition,
    is_finite,
    modal_action,
    split_points,
    starts_well,
    subject_of,
    tense_of,
    trim,
)
from maieutic.language.inferences import inferences, linked_sentences, why_clause
from maieutic.language.restate import (
    first_person_rewrites,
    lower_first,
    render,
    speaker_reference,
)
from maieutic.language.word_lists import words

if TYPE_CHECKING:  # spaCy (and through it torch) loads only when a parser runs
    from spacy.tokens import Doc, Span, Token


@dataclass(kw_only=True)
class _Context:
    speaker: str
    sentence_index: int
    sentence: Span
    referent: str = ""
    """The one person other than the speaker the text names: "he", "his" stand for them."""
    before: tuple[Span, ...] = ()
    """The sentences just before, where a "they" or "it" may find what it stands for."""

    def rewrites(self, tokens) -> dict[int, str]:
        return first_person_rewrites(tokens, self.speaker, referent=self.referent)


_NOT_ACTIONS = words(
    """be, have, look, know, think, understand, remember, realize, see, get, talk, say, go,
    do, take"""
)


def _action_text(tokens: list[Token], ctx: _Context) -> str:
    """The proposed action, restated; "" unless it opens with a verb in the base form that
    names something to do ("ban", "build"), not a state ("be more precise", "look at")."""
    tokens = trim(sorted(tokens, key=lambda t: t.i))
    if not tokens or tokens[0].tag_ != "VB" or tokens[0].lemma_ in _NOT_ACTIONS:
        return ""
    return render(tokens, ctx.rewrites(tokens))


def _speaker_confusion(tokens: list[Token], rewrites: dict, head: Token, *, ctx: _Context) -> bool:
    """Whether restating the speaker's words would leave them unclear."""
    if any(
        t.lemma_ in AFFIRMING
        and t != head
        and any(c.i in rewrites and c.dep_ in SUBJECTS for c in t.children)
        for t in tokens
    ):
        return True  # "all the speaker is saying is that the speaker thinks X": X is read alone
    # "the speaker's son … our destination": whose is "our"?
    return (
        ctx.speaker == "the speaker"
        and any(i in rewrites for i in (t.i for t in tokens))
        and any(t.lower_ in ("we", "us", "our", "ours") for t in tokens)
    )


def _with_condition(text: str, condition: Token, ctx: _Context) -> str | None:
    """ "If X, then Y" restated as "Y if X", so that it reads after "that" (None when
    the condition cannot be restated cleanly or makes the clause too long)."""
    cond = [t for t in condition.subtree if not (t.head == condition and t.dep_ == "mark")]
    mark = next(c.lower_ for c in condition.children if c.dep_ == "mark")
    if unclear_reference(cond, ctx.rewrites(cond), condition) or copied_errors(cond):
        return None
    cond_text = render(cond, ctx.rewrites(cond))
    cond_text = lower_first(
        cond_text, cond[0] if cond and cond[0].i not in ctx.rewrites(cond) else None
    )
    text = f"{text} {mark} {cond_text}"
    return None if len(text.split()) > MAX_CLAUSE_WORDS + 6 else text


def _because(token: Token) -> bool:
    return token.dep_ == "advcl" and any(
        c.dep_ == "mark" and c.lower_ == "because" for c in token.children
    )


def _proposed_action(head: Token, ctx: _Context) -> str:
    """What a modal clause proposes doing ("" when there is none worth asking about)."""
    found = modal_action(head)
    action = _action_text(found[1], ctx) if found else ""
    return action if len(action.split()) >= 2 else ""  # "Bernie should know": too little


def _claim(head: Token, ctx: _Context, split: set[int]) -> Claim | None:
    subject = subject_of(head)
    if subject is None or not is_finite(head):
        return None
    if subject.tag_ in ("WDT", "WP", "WP$") or (subject.dep_ == "expl" and head.lemma_ != "be"):
        return None  # a relative clause's "which"/"who" needs its antecedent
    if head.lemma_ == "mean" and any(_because(c) for c in head.children):
        return None  # "just because X doesn't mean Y": X is its subject, whatever the parse
    named: dict[int, str] = {}
    if subject.lower_ in UNRESOLVED and not extraposed(head):
        named = resolve(subject, ctx.before)  # "They're on the front lines": who?
        if not named:
            return None  # "it well describes the problem": no question can say what it is
    condition = fronted_condition(head, subject=subject)
    if condition is not None:
        split = split | {condition.i}
    tokens = clause_tokens(head, split)
    lifted = lifted_hedges(tokens)
    tokens = [t for t in tokens if t.i not in lifted]
    if len([t for t in tokens if t.is_alpha]) < 3 or tokens[0].i > subject.i:
        return None
    if not starts_well(tokens, subject):
        return None  # "when we…", "some of them I voted for", "the more you help…"
    own = ctx.rewrites(tokens)
    rewrites = own | unhedge(head) | named
    first = tokens[0] if tokens[0].i not in rewrites else None
    text = LEADING_PHRASE.sub("", render(tokens, rewrites))
    text = lower_first(text, first) if text else text
    if not text or len(text.split()) < 3 or not reads_as_clause(text):
        return None
    if unclear_reference(tokens, rewrites, head) or hedged(tokens) or copied_errors(tokens):
        return None
    mentions = sum(t.lower_ in ("i", "me", "my", "mine", "myself") for t in tokens)
    if mentions > 1 and ctx.speaker != "the speaker":
        return None  # "Trump's plan… they'll": a named speaker twice reads wrong either way
    if _speaker_confusion(tokens, own, head, ctx=ctx):
        return None
    if condition is not None:
        text = _with_condition(text, condition, ctx)
        if text is None:
            return None
    return _described(
        head, subject=subject, tokens=tokens, text=text, ctx=ctx, own=own, hedged=bool(lifted)
    )


def _described(
    head: Token,
    *,
    subject: Token,
    tokens: list[Token],
    text: str,
    ctx: _Context,
    own: dict,
    hedged: bool,
) -> Claim:
    """The claim of a clause that passed every check, with its kinds and features."""
    kinds = claim_kinds(head, tokens, ctx.sentence, text=text)
    authority = ""
    if "authority" in kinds:
        authority = render(list(subject.subtree), ctx.rewrites(subject.subtree))
    # the speaker's own view, wish, plan or habit ("I want…", "I'm getting rid of…",
    # "I travel with my dog"): asking whether it is true challenges nothing
    stance = any(t.i in own for t in subject.subtree)  # "I…", "my father…"
    return Claim(
        words=render(tokens),
        stance=stance,
        hedged=hedged,
        text=text,
        kinds=tuple(kinds),
        sentence=ctx.sentence_index,
        source=ctx.sentence.text,
        tense=tense_of(head),
        action=_proposed_action(head, ctx),
        person=attacked_person(subject),
        authority=authority,
        terms=defining_terms(tokens, ctx.sentence),
        lemmas=content_lemmas(tokens),
        features=clause_features(
            head, subject=subject, tokens=tokens, kinds=kinds, sentence_index=ctx.sentence_index
        ),
    )


def _sentence_claims(sentence: Span, ctx: _Context) -> list[Claim]:
    if sentence.text.rstrip().endswith("?"):
        return []  # a question asks; it claims nothing to challenge
    split = split_points(sentence)
    heads = [sentence.root, *(sentence.doc[i] for i in sorted(split))]
    if (why := why_clause(sentence)) is not None:
        # "That's why we must ban X": the claim is what follows "why" (without it)
        word = next(g for g in why.children if g.lower_ == "why")
        split = split | {why.i, word.i}
        heads = [why] + [h for h in heads if h != sentence.root and h != why]
    out: list[Claim] = []
    by_head: dict[int, Claim] = {}
    for head in heads:
        reported = {c.i for c in head.children if c.i in split and c.dep_ == "ccomp"}
        subject = subject_of(head)
        if reported:
            # "I think X" / "that means X": X is the claim, not the reporting; "the study
            # found that X" is a claim about the study too, restated with what it found
            if subject is None or subject.lower_ in SELF_OR_ANAPHOR:
                continue
            own_split = split - reported
        else:
            own_split = split
        if claim := _claim(head, ctx, own_split):
            out.append(claim)
            by_head[head.i] = claim
    out += inferences(sentence, by_head)
    return out


def _sole_person(docs: list[Doc], speaker: str) -> str:
    """The one person the text names besides the speaker ("Donald", "Donald Trump"), in
    its most frequent form; "" when it names none or several."""
    forms: Counter[str] = Counter()
    for doc in docs:
        for ent in doc.ents:
            name = ent.text.strip()
            named = len(name) >= 3 and name[0].isupper() and not ent.root.is_stop
            if ent.label_ == "PERSON" and named and name.split()[-1] != speaker.split()[-1]:
                forms[name] += 1
    if not forms or sum(forms.values()) < 2:
        return ""  # named once: too little to be sure "he" is that person
    people = {name.split()[-1] if len(name.split()) > 1 else name for name in forms}
    surnames = {n.split()[-1] for n in forms}
    firsts = {n.split()[0] for n in forms}
    if len(people) > 1 and not (len(surnames) == 1 or len(firsts) == 1):
        return ""
    return max(forms, key=lambda n: (forms[n], len(n)))


def _answered_claims(body: str, first_sentence: int) -> list[Claim]:
    """The claims of the message a forum reply answers, none in its author's first
    person (who "I" is there no question could say)."""
    message = syntax.answered_message(body)
    if not message:
        return []
    _, words, _ = syntax.split_speaker(message)
    docs = syntax.parse([syntax.normalise(c) for c in syntax.sentence_chunks(words)])
    out: list[Claim] = []
    n = first_sentence
    for doc in docs:
        for sentence in doc.sents:
            for claim in _sentence_claims(
                sentence, _Context(speaker="the other poster", sentence_index=n, sentence=sentence)
            ):
                if claim.kind != "inference" and "the other poster" not in claim.text:
                    out.append(replace(claim, answered=True, stance=False))
            n += 1
    return out


def read_claims(text: str) -> Reading:
    """The speaker and the claims of ``text``, sentence by sentence (a forum reply's
    with those of the message it answers, marked as such)."""
    label, body, _ = syntax.split_speaker(text)
    speaker = speaker_reference(label) if label else "the speaker"
    docs = syntax.parse([syntax.normalise(c) for c in syntax.sentence_chunks(body)])
    referent = _sole_person(docs, speaker)
    claims: list[Claim] = []
    sentences: list[str] = []
    spans: list[Span] = []
    for doc in docs:
        for sentence in doc.sents:
            ctx = _Context(
                speaker=speaker,
                sentence_index=len(sentences),
                sentence=sentence,
                referent=referent,
                before=tuple(spans[-2:]),
            )
            spans.append(sentence)
            claims.extend(_sentence_claims(sentence, ctx))
            sentences.append(sentence.text)
    claims += linked_sentences(claims, sentences)
    claims += _answered_claims(body, len(sentences))
    return Reading(
        speaker=speaker,
        speaker_label=label,
        claims=tuple(claims),
        n_sentences=len(sentences),
        key_phrases=key_phrases(docs),
    )


def parse_one(text: str) -> Doc:
    """One text parsed (tests and the well-formedness check use it)."""
    return syntax.parse([text])[0]
