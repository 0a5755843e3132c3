"""The registered generators of the critical-questions task."""

from __future__ import annotations

import inspect
from collections.abc import Sequence

from maieutic.errors import DataError
from maieutic.llm.options import LLM_DEFAULTS, LLMOptions
from maieutic.llm.types import GenerationParams
from maieutic.registry import SCORER_PREFIX, create, register
from maieutic.tasks.cqs.claims_generator import ClaimsCQGenerator
from maieutic.tasks.cqs.data import load_cq_dataset
from maieutic.tasks.cqs.generate import FILL_SOURCES, LLMCQGenerator, TemplateCQGenerator
from maieutic.tasks.cqs.model_first import ORDERS
from maieutic.tasks.cqs.prompts import PromptContext
from maieutic.tasks.cqs.schemes import SchemeLibrary
from maieutic.tasks.cqs.selection import make_selector
from maieutic.tasks.cqs.template_generator import TemplateGenerator


def scheme_library(schemes: str | None, *, scheme_mapping: str | None) -> SchemeLibrary:
    """The benchmark's scheme file when named, else the built-in library."""
    if scheme_mapping and not schemes:
        raise DataError("--scheme-mapping needs --schemes")
    return (
        SchemeLibrary.from_walton(schemes, scheme_mapping) if schemes else SchemeLibrary.builtin()
    )


@register("generator", task="cqs", name="claims")
def claims(selector: str = "first") -> ClaimsCQGenerator:
    """Model-free (the default): the text's own claims, read with a syntactic parser,
    each challenged in the framings that fit it; three chosen for usefulness,
    well-formedness and variety.

    ``selector``: ``first`` keeps the generator's own scores; ``filter`` lets the
    precision filter learned from strict ratings choose, abstaining below its threshold
    (``maieutic.tasks.cqs.candidate_filter``; on held-out texts it asked fewer questions
    at about the same Useful rate, docs/claims.md); ``usefulness`` (the shipped judge) or
    ``scorer:DIR`` multiplies each candidate's score by the judge's P(Useful) before
    the same choice."""
    if selector == "first":
        return ClaimsCQGenerator()
    if selector == "filter":
        from maieutic.tasks.cqs.candidate_filter import builtin_filter

        return ClaimsCQGenerator(candidate_filter=builtin_filter())
    from maieutic.tasks.cqs.usefulness import NAME, PREFIX, load_judge

    if selector != NAME and not selector.startswith(PREFIX):
        raise DataError(
            f"--selector {selector}: the claims generator takes first (its own choice), "
            f"filter, {NAME} or scorer:DIR"
        )
    return ClaimsCQGenerator(judge=load_judge(selector))


@register("generator", task="cqs", name="template")
def template(
    selector: str = "first",
    schemes: str | None = None,
    *,
    scheme_mapping: str | None = None,
    fill: str = "auto",
) -> TemplateCQGenerator:
    """Model-free: the intervention's argumentation-scheme templates, filled from the text.

    ``fill``: ``first`` fills each slot with its most likely phrase; ``every`` fills
    each slot in every plausible way (over-generation for a selector to choose from);
    ``auto`` is ``every`` when the selector is a learned scorer, else ``first``.
    """
    if fill not in ("auto", "first", "every"):
        raise DataError(f"fill must be auto, first or every, not {fill!r}")
    if selector == "llm-judge":
        raise DataError("--selector llm-judge asks a model: the template generator has none")
    every = fill == "every" or (fill == "auto" and selector.startswith(SCORER_PREFIX))
    library = scheme_library(schemes, scheme_mapping=scheme_mapping)
    return TemplateCQGenerator(
        TemplateGenerator(library, every_fill=every), make_selector(selector)
    )


@register("generator", task="cqs", name="llm", uses_llm=True)
def llm(
    strategies: Sequence[str] = ("detailed",),
    llm: str | None = None,
    *,
    base_url: str | None = None,
    llm_backend: str = LLM_DEFAULTS.llm_backend,
    candidates: int = 1,
    selector: str = "first",
    seed: int = 0,
    temperature: float = 0.7,
    top_p: float = 1.0,
    max_tokens: int = 256,
    shots: int = 1,
    shots_from: str | None = None,
    schemes: str | None = None,
    scheme_mapping: str | None = None,
    concurrency: int = LLM_DEFAULTS.concurrency,
    timeout: float = LLM_DEFAULTS.timeout,
    retries: int = LLM_DEFAULTS.retries,
    fill_from: str | None = None,
) -> LLMCQGenerator:
    """An LLM prompted with one or more strategies; candidates pooled, three selected."""
    if fill_from is not None and fill_from not in FILL_SOURCES:
        raise DataError(f"--fill-from must be one of {', '.join(FILL_SOURCES)}, not {fill_from!r}")
    pool = None
    if shots_from:
        pool = load_cq_dataset(shots_from)
    context = PromptContext(
        library=scheme_library(schemes, scheme_mapping=scheme_mapping),
        pool=pool,
        shots=shots,
        seed=seed,
    )
    client = LLMOptions.of(locals()).client()
    return LLMCQGenerator(
        client,
        [create("strategy", task="cqs", name=s) for s in dict.fromkeys(strategies)],
        context,
        selector=make_selector(selector, client=client, seed=seed),
        params=GenerationParams(
            temperature=temperature, top_p=top_p, max_tokens=max_tokens, seed=seed
        ),
        candidates=candidates,
        fill_from=fill_from,
    )


_MODEL_FIRST = inspect.signature(llm).replace(
    parameters=[
        *inspect.signature(llm).parameters.values(),
        inspect.Parameter("order", inspect.Parameter.KEYWORD_ONLY, default="auto", annotation=str),
    ]
)
"""The model-first generator's options: the llm generator's, declared once, and the order."""


def model_first(*args, **kwargs):
    """A language model's questions first: each usable one (no hard flaw, about the
    text, no repeat) takes a slot, in the model's order or ``selector``'s among them
    (``llm-judge``: the model labels its own candidates by the benchmark's guidelines);
    the offline claims generator fills only the slots the model leaves empty, and the
    note says so. ``order``: ``auto`` is ``offline`` (the rules' questions alone, the
    model not asked) for a model measured to write worse questions than the rules (the
    embedded SmolLM2 among them), else ``model-first``; either can be forced.
    Takes the llm generator's options (``maieutic.tasks.cqs.model_first``)."""
    from maieutic.tasks.cqs.model_first_generator import ModelFirstCQGenerator

    model_args = _MODEL_FIRST.bind(*args, **kwargs).arguments
    if model_args.get("fill_from") is not None:
        raise DataError(
            "--fill-from is for the llm generator: model-first fills from the claims itself"
        )
    selector = model_args.pop("selector", "first")
    order = model_args.pop("order", "auto")
    if order not in ORDERS:
        raise DataError(f"--order must be one of {', '.join(ORDERS)}, not {order!r}")
    model = llm(**model_args)  # its own selector unused: model-first chooses itself
    seed = model_args.get("seed") or 0
    return ModelFirstCQGenerator(
        model,
        ClaimsCQGenerator(),
        selector=make_selector(selector, client=model.client, seed=seed),
        order=order,
    )


model_first.__signature__ = _MODEL_FIRST
model_first = register("generator", task="cqs", name="model-first", uses_llm=True)(model_first)


@register("generator", task="cqs", name="select", tool="maieutic cqs select")
def select(
    candidates: str,
    data: str | None = None,
    selector: str = "first",
    *,
    model_first: bool = False,
    seed: int = 0,
    llm: str | None = None,
    base_url: str | None = None,
    llm_backend: str = LLM_DEFAULTS.llm_backend,
    concurrency: int = LLM_DEFAULTS.concurrency,
    timeout: float = LLM_DEFAULTS.timeout,
    retries: int = LLM_DEFAULTS.retries,
):
    """Three of each text's stored candidates (a file in the benchmark's layout, with
    ``data`` for the texts of a submission-layout one), chosen by ``selector``; with
    ``model_first`` as the model-first route would show them. The model options are
    the ``llm-judge`` selector's (``maieutic cqs select``,
    ``maieutic.tasks.cqs.select_generator``)."""
    from maieutic.tasks.cqs.candidates import load_candidates
    from maieutic.tasks.cqs.select_generator import SelectingGenerator

    client = LLMOptions.of(locals()).client() if selector == "llm-judge" else None
    chosen = make_selector(selector, client=client, seed=seed)
    return SelectingGenerator(
        load_candidates(candidates, data=data), chosen, model_first=model_first
    )
