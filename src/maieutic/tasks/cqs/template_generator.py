"""The model-free generator: critical-question templates of the intervention's
argumentation schemes, with slots filled from the text by light rules."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass

from maieutic.tasks.cqs.data import Intervention
from maieutic.tasks.cqs.schemes import SchemeLibrary
from maieutic.tasks.cqs.text_facts import TextFacts, read_fact_options, read_facts

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


def slot_field(name: str) -> str:
    """The fact a slot name stands for (our own names, or the scheme file's)."""
    name = name.lower()
    return name if name in TextFacts.__dataclass_fields__ else _WALTON_SLOTS.get(name, "claim")


def template_fields(template: str) -> list[str]:
    """The facts a template needs, in order of first use."""
    return list(dict.fromkeys(slot_field(a or b) for a, b in _SLOT.findall(template)))


def fill(template: str, facts: TextFacts | Mapping[str, str]) -> str:
    """Fill ``{slot}`` and ``<slot>`` placeholders from ``facts``."""
    values = asdict(facts) if isinstance(facts, TextFacts) else facts

    def value(match: re.Match) -> str:
        field = slot_field(match.group(1) or match.group(2))
        text = values[field]
        # Clauses lifted from the text read better quoted, and quoting shows the reader
        # exactly which words of the argument the question is about.
        if field in _QUOTED and not text.startswith("the proposed"):
            return f'"{text}"'
        return text

    text = _SLOT.sub(value, template)
    text = " ".join(text.split())
    return text[0].upper() + text[1:] if text else text


MAX_FILLS_PER_TEMPLATE = 32


def fill_every_way(
    template: str, options: Mapping[str, list[str]], limit: int = MAX_FILLS_PER_TEMPLATE
) -> list[str]:
    """The template filled with every combination of its slots' plausible values (the
    first value of each first), at most ``limit`` of them. A cause and an effect move
    together: the n-th cause goes with the n-th effect, never with another's. A filling
    that puts the same words in two slots ("X and X") is skipped, unless it is the first."""
    fields = template_fields(template)
    linked = "cause" in fields and "effect" in fields
    free = [f for f in fields if not (linked and f in ("cause", "effect"))]
    axes = [range(len(options[f])) for f in free]
    if linked:
        axes.append(range(min(len(options["cause"]), len(options["effect"]))))
    out: list[str] = []
    for n, combo in enumerate(itertools.product(*axes)):
        values = {f: options[f][i] for f, i in zip(free, combo, strict=False)}
        if linked:
            values["cause"] = options["cause"][combo[-1]]
            values["effect"] = options["effect"][combo[-1]]
        if n and len(set(values.values())) < len(values):
            continue
        out.append(fill(template, {**{k: v[0] for k, v in options.items()}, **values}))
        if len(out) == limit:
            break
    return out


@dataclass
class TemplateGenerator:
    """Candidates from scheme templates, interleaved across the intervention's schemes."""

    library: SchemeLibrary
    every_fill: bool = False  # over-generate: each slot filled in every plausible way

    name = "template"

    def candidates(self, intervention: Intervention, rotation: int = 0) -> list[str]:
        """All filled templates, round-robin over schemes so the first three vary
        (with ``every_fill``, each template's fillings follow one another).

        ``rotation`` (the run index) shifts which template of each scheme comes first,
        so repeated runs give different questions.
        """
        if self.every_fill:
            options = read_fact_options(intervention.intervention)
            fills = lambda t: fill_every_way(t, options)  # noqa: E731
        else:
            facts = read_facts(intervention.intervention)
            fills = lambda t: [fill(t, facts)]  # noqa: E731
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
            for question in fills(template):
                if question.lower() not in seen:
                    seen.add(question.lower())
                    out.append(question)
        return out
