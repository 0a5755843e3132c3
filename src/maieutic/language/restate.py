"""Restating words of a text so that a question can carry them: a clause rendered as a
declarative that reads after "that", in the third person where the speaker said "I".

A question about a claim must restate it in full and correctly: "the speaker voted
for every sanction" from "I voted for every sanction", "the speaker has heard" from
"I've heard", "the speaker's forums" from "my forums". Only the speaker's own first
person singular is rewritten — "we" and "our" stay, since a reader knows whose side
they name and no rule can tell the country from the party. Verbs agree with the new
subject ("I am" → "the speaker is", "I want" → "the speaker wants").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from maieutic.language.word_lists import words

if TYPE_CHECKING:  # spaCy (and through it torch) loads only when a parser runs
    from spacy.tokens import Token


_CLITIC = {"'s", "'re", "'ve", "'ll", "'d", "'m", "n't", "’s", "’re", "’ve", "’ll", "’d", "’m"}
_FULL_FORMS = {"'m": "am", "'re": "are", "'ve": "have", "'ll": "will", "'d": "would"}
_THIRD_PERSON = {"am": "is", "are": "is", "have": "has", "do": "does", "go": "goes", "be": "is"}
_FIRST_PERSON = {"i": "{S}", "me": "{S}", "my": "{S}'s", "mine": "{S}'s", "myself": "{S}"}
_NAME_LIKE = re.compile(r"^[A-Z]{4,14}$")
_CONSONANT_RUN = re.compile(r"[^AEIOUY]{4,}")


ROLES = words(
    """resident, vendor, moderator, host, speaker, audience, citizen, caller, reporter,
    user, guest, member, voter, parent, teacher, student, doctor, nurse, official,
    chair, chairman, chairwoman, presenter, interviewer, panelist, participant,
    commentator, narrator, customer, employee, owner, councillor, mayor, principal,
    senator, president, minister, judge, critic, expert, witness, author, writer,
    editor, questioner, respondent"""
)
"""Labels that name a role, not a person: "VENDOR:" is "the vendor"."""
_TITLE = re.compile(r"^[A-Z][A-Z.]{1,14}$")


def speaker_reference(label: str) -> str:
    """How a question names the speaker: a surname in capitals ("CLINTON") reads as
    "Clinton", a title and a surname ("DR. LINDQVIST") as "Dr. Lindqvist", a role
    ("VENDOR") as "the vendor"; user names, initials and unpronounceable labels
    ("JetJock", "MT", "AFCHF", "Doctor-Mom") are not names a reader knows: "the speaker"."""
    words = label.split()
    if len(words) == 1 and label.lower() in ROLES:
        return f"the {label.lower()}"
    if 1 < len(words) <= 3 and all(_TITLE.match(w) for w in words):
        last = words[-1].rstrip(".")
        if _NAME_LIKE.match(last) and not _CONSONANT_RUN.search(last):
            return " ".join(w.title() for w in words)
    named = _NAME_LIKE.match(label) and not _CONSONANT_RUN.search(label)
    return label.title() if named else "the speaker"


_SAME_IN_PAST = words(
    """read, put, set, cut, hit, let, cost, hurt, shut, spread, quit, bet, beat"""
)


def third_person_singular(verb: str) -> str:
    """The present-tense form that agrees with "the speaker" ("want" → "wants"); a verb
    whose past is its base form ("I read") is left alone, since it is likely past."""
    lower = verb.lower().replace("’", "'")
    if lower in _SAME_IN_PAST:
        return verb
    lower = _FULL_FORMS.get(lower, lower)
    if lower in _THIRD_PERSON:
        return _THIRD_PERSON[lower]
    if re.search(r"(?:s|sh|ch|x|z|o)$", lower):
        return lower + "es"
    if re.search(r"[^aeiou]y$", lower):
        return lower[:-1] + "ies"
    return lower + "s"


def _agreeing_verb(subject: Token) -> Token | None:
    """The finite present-tense verb that agrees with ``subject``, if any."""
    head = subject.head
    for child in head.children:
        if child.dep_ in ("aux", "auxpass") and child.i > subject.i:
            return child if child.tag_ == "VBP" else None
    return head if head.tag_ == "VBP" else None


def _coordinated_verbs(verb: Token) -> list[Token]:
    """Present-tense verbs coordinated with ``verb`` that share its subject ("I am a
    mother and have a son": "have" agrees with "I" too)."""
    head = verb.head if verb.dep_ in ("aux", "auxpass") else verb
    # the parser sometimes hangs the second verb on the first one's object ("love dogs
    # and hate cats": "hate" under "dogs")
    hosts = [head, *(c for c in head.children if c.dep_ in ("dobj", "attr"))]
    # a base form shares a modal or "to" ("will go and see") unless the first verb is
    # finite and plain ("I'm a mother and have a son": the tagger calls "have" VB)
    shared = head.tag_ in ("VB", "VBN", "VBG") or any(
        c.dep_ == "aux" and c.tag_ in ("MD", "TO") for c in head.children
    )
    tags = ("VBP",) if shared else ("VBP", "VB")
    return [
        c
        for host in hosts
        for c in host.children
        if c.dep_ == "conj"
        and c.tag_ in tags
        and not any(g.dep_ in ("nsubj", "nsubjpass", "expl") for g in c.children)
    ]


_THIRD_PERSON_PRONOUNS = {"he": "{R}", "she": "{R}", "him": "{R}", "his": "{R}'s"}


_THEY = {"i": "they", "me": "them", "my": "their", "mine": "theirs", "myself": "themselves"}
_THEY_VERBS = {"am": "are", "'m": "'re", "’m": "’re", "was": "were"}


def _they(token: Token) -> dict[int, str]:
    """A later mention of the speaker as "they", with the verb agreeing."""
    out = {token.i: _THEY[token.lower_]}
    if token.lower_ == "i" and token.dep_ in ("nsubj", "nsubjpass"):
        for verb in [token.head, *(c for c in token.head.children if c.dep_ in ("aux", "auxpass"))]:
            if verb.lower_ in _THEY_VERBS and verb.i > token.i:
                out[verb.i] = _THEY_VERBS[verb.lower_]
    return out


def first_person_rewrites(
    tokens: Iterable[Token], speaker: str, *, referent: str = ""
) -> dict[int, str]:
    """Replacement text by token index: the speaker's "I/me/my" and the verbs that agree;
    with a ``referent`` (the one person the text talks about), "he/she/his" too."""
    out: dict[int, str] = {}
    named = False  # after the first mention, "the speaker" is "they" ("…their dog")
    for token in sorted(tokens, key=lambda t: t.i):
        if referent and token.lower_ in _THIRD_PERSON_PRONOUNS and token.tag_ in ("PRP", "PRP$"):
            out[token.i] = _THIRD_PERSON_PRONOUNS[token.lower_].format(R=referent)
            continue
        if referent and token.lower_ == "her" and token.tag_ in ("PRP", "PRP$"):
            out[token.i] = referent + ("'s" if token.tag_ == "PRP$" else "")
            continue
        form = _FIRST_PERSON.get(token.lower_)
        if form is None or token.tag_ not in ("PRP", "PRP$"):
            continue
        if named:
            out.update(_they(token))
            continue
        named = True
        out[token.i] = form.format(S=speaker)
        if token.lower_ == "i" and token.dep_ in ("nsubj", "nsubjpass"):
            verb = _agreeing_verb(token)
            if verb is not None:
                out[verb.i] = third_person_singular(verb.text)
            following = token.nbor() if token.i + 1 < len(token.doc) else None
            clitic = following.text.replace("’", "'").lower() if following is not None else ""
            if clitic in _FULL_FORMS and following.i not in out:
                # "I'd" → "the speaker would"; "I’m", whatever its tag, → "the speaker is"
                full = _FULL_FORMS[clitic]
                out[following.i] = _THIRD_PERSON.get(full, full)
                verb = following if full == "am" else verb
            for conj in _coordinated_verbs(verb) if verb is not None else ():
                out[conj.i] = third_person_singular(conj.text)  # "… and have a son"
    return out


_SECOND_PERSON = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself"}
_SECOND_PERSON_VERBS = {"am": "are", "'m": "'re", "’m": "’re", "was": "were"}


def addressee_rewrites(tokens: Iterable[Token]) -> dict[int, str]:
    """Replacement text turning the author's "I/me/my" into "you/your", for questions put
    to the author ("Are you taking for granted that you…"); "I am" → "you are"."""
    out: dict[int, str] = {}
    for token in tokens:
        form = _SECOND_PERSON.get(token.lower_)
        if form is None or token.tag_ not in ("PRP", "PRP$"):
            continue
        out[token.i] = form
        if token.lower_ == "i" and token.dep_ in ("nsubj", "nsubjpass"):
            verbs = [token.head, *(c for c in token.head.children if c.dep_ in ("aux", "auxpass"))]
            for verb in verbs:
                if verb.lower_ in _SECOND_PERSON_VERBS and verb.i > token.i:
                    out[verb.i] = _SECOND_PERSON_VERBS[verb.lower_]
    return out


def render(tokens: list[Token], rewrites: dict[int, str] | None = None) -> str:
    """The tokens as text (in order; gaps closed), with ``rewrites`` applied: a clitic
    replaced by a full word gets its space ("I've" → "the speaker has")."""
    rewrites = rewrites or {}
    pieces: list[str] = []
    previous: Token | None = None
    for token in sorted(tokens, key=lambda t: t.i):
        text = rewrites.get(token.i, token.text)
        if pieces:
            adjacent = previous is not None and previous.i == token.i - 1
            joined = adjacent and not previous.whitespace_
            if token.i in rewrites and token.text in _CLITIC and text not in _CLITIC:
                joined = False
            if not joined and not (token.is_punct and token.text in ",.;:!?%)"):
                pieces.append(" ")
        pieces.append(text)
        previous = token
    # a quotation the tokens open is closed by the quote mark just after them (the
    # parser often hangs that mark on the verb: 'not a "radical leftist".')
    closing = _closing_quote(previous) if previous is not None else None
    if closing and _unpaired("".join(pieces)):
        pieces.append(closing)
    return tidy("".join(pieces))


def _closing_quote(last: Token) -> str | None:
    following = last.nbor() if last.i + 1 < len(last.doc) else None
    return following.text if following is not None and following.text in ('"', "”") else None


_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,;:.!?%)])")
_REPEATED_PUNCT = re.compile(r"([,;:])(?:\s*[,;:])+")


def tidy(text: str) -> str:
    """Collapse spaces, drop spaces before punctuation and runs of commas, and trim the
    ends of stray punctuation and quotes."""
    text = " ".join(text.split())
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    text = _REPEATED_PUNCT.sub(r"\1", text)
    text = text.strip(" ,;:-–—'‘’")
    text = _strip_stray_quotes(text)
    text = _LIST_MARK.sub("", text)  # "…saves future costs, 2": the next item's number
    return text.rstrip(".!?…").rstrip(" ,;:")


_LIST_MARK = re.compile(r",\s*\(?\d\)?$")


def _strip_stray_quotes(text: str) -> str:
    """Double quotes trimmed from the ends only where they are unpaired: the closing
    quote of a quoted phrase the claim ends with stays ('not a "radical leftist"')."""
    while text and text[0] in '"“' and _unpaired(text):
        text = text[1:].lstrip()
    while text and text[-1] in '"”' and _unpaired(text):
        text = text[:-1].rstrip()
    return text


def _unpaired(text: str) -> bool:
    straight = text.count('"') % 2 == 1
    curly = text.count("“") != text.count("”")
    return straight or curly


_NAMED = words("PERSON, ORG, GPE, NORP, LOC, FAC, PRODUCT, EVENT, LAW, WORK_OF_ART, LANGUAGE")


_TITLES = words(
    """secretary, president, senator, governor, mayor, general, judge, professor, minister,
    chancellor, prime, vice, justice, speaker"""
)


def lower_first(text: str, first: Token | None) -> str:
    """Lower-case the first letter unless the first word is a name, "I" or an acronym
    (the tagger calls many sentence-initial nouns proper; a named entity is surer)."""
    if not text or first is None:
        return text
    if first.text in ("Mr.", "Mrs.", "Ms.", "Dr.", "St.") or first.text.isupper():
        return text
    following = first.nbor() if first.i + 1 < len(first.doc) else None
    if first.lower_ in _TITLES and following is not None and following.pos_ == "PROPN":
        return text  # "Secretary Clinton"
    # a common noun the tagger took for a name ("Size of aircraft…" tagged ORG) is
    # lower-cased; a proper noun inside an entity keeps its capital
    if first.pos_ == "PROPN" and first.ent_type_ in _NAMED and not first.is_stop:
        return text
    if first.text[:1].isupper() and _a_name(first):
        return text  # "Saget is known for…", "Malindi authorities welcomed…"
    return text[0].lower() + text[1:]


def _a_name(token: Token) -> bool:
    """A capitalised content word no dictionary knows, in any of its forms: a name
    ("Saget", "Malindi", "Starbucks"), whatever the tagger's entities say."""
    from maieutic.language.dictionary import known_words

    if token.is_stop or not token.is_alpha:
        return False  # "We", "For": function words no dictionary of content words lists
    known = known_words()
    return not any(form in known for form in (token.lemma_.lower(), *_forms(token.lower_)))


_ENDINGS = (
    ("ies", "y"),
    ("es", ""),
    ("s", ""),
    ("ing", ""),
    ("ing", "e"),
    ("ed", ""),
    ("ed", "e"),
    ("er", ""),
    ("ly", ""),
)
"""Endings a word's stem may hide, and what the stem then ends with."""


def _forms(word: str) -> set[str]:
    """``word`` and the stems its common endings may hide ("dogs", "bumping",
    "providing", "stopped"): a tagger that takes a capitalised word for a name gives it
    no lemma of its own."""
    forms = {word}
    for ending, back in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            stem = word[: -len(ending)]
            forms |= {stem + back}
            if len(stem) > 3 and stem[-1] == stem[-2]:  # "bumping" → "bump"
                forms.add(stem[:-1])
    return forms
