"""The model-free generator: critical-question templates of the intervention's
argumentation schemes, with slots filled from the text by light rules."""

from __future__ import annotations

import re
from dataclasses import dataclass

from maieutic.data.cqs import Intervention
from maieutic.tasks.cqs.schemes import SchemeLibrary
from maieutic.tasks.cqs.text_facts import TextFacts, read_facts

_SLOT = re.compile(r"\{(\w+)\}|<(\w+)>")
# Slot names of the benchmark's scheme file, mapped onto the facts we extract.
_WALTON_SLOTS = {
    "eventa": "cause",
    "eventb": "effect",
    "subjecta": "subject",
    "subjectx": "subject",
    "featf": "premise",
    "featg": "claim",
    "experte": "speaker",
    "domaind": "subject",
    "goalg": "action",
    "valuev": "claim",
    "c1": "premise",
    "c2": "claim",
    "argument1": "claim",
    "casec": "subject",
    "definitiond": "claim",
    "large_majority": "subject",
    "direction": "action",
    "neg": "claim",
}


_QUOTED = {"claim", "premise", "cause", "effect", "action"}


def fill(template: str, facts: TextFacts) -> str:
    """Fill ``{slot}`` and ``<slot>`` placeholders from ``facts``."""

    def value(match: re.Match) -> str:
        name = (match.group(1) or match.group(2)).lower()
        field = name if hasattr(facts, name) else _WALTON_SLOTS.get(name, "claim")
        text = getattr(facts, field)
        # Clauses lifted from the text read better quoted, and quoting shows the reader
        # exactly which words of the argument the question is about.
        if field in _QUOTED and not text.startswith("the proposed"):
            return f'"{text}"'
        return text

    text = _SLOT.sub(value, template)
    text = " ".join(text.split())
    return text[0].upper() + text[1:] if text else text


@dataclass
class TemplateGenerator:
    """Candidates from scheme templates, interleaved across the intervention's schemes."""

    library: SchemeLibrary

    name = "template"

    def candidates(self, intervention: Intervention, rotation: int = 0) -> list[str]:
        """All filled templates, round-robin over schemes so the first three vary.

        ``rotation`` (the run index) shifts which template of each scheme comes first,
        so repeated runs give different questions.
        """
        facts = read_facts(intervention.intervention)
        groups: list[list[str]] = []
        seen_schemes: set[str] = set()
        for label in intervention.schemes:
            scheme = self.library.resolve(label)
            if scheme and scheme.name not in seen_schemes:
                seen_schemes.add(scheme.name)
                groups.append(list(scheme.templates))
        generic = self.library.generic()
        if generic:
            groups.append(list(generic.templates))
        for group in groups:
            shift = rotation % len(group)
            group[:] = group[shift:] + group[:shift]
        ordered: list[str] = []
        depth = max((len(g) for g in groups), default=0)
        for i in range(depth):
            ordered.extend(g[i] for g in groups if i < len(g))
        out, seen = [], set()
        for template in ordered:
            question = fill(template, facts)
            if question.lower() not in seen:
                seen.add(question.lower())
                out.append(question)
        return out
