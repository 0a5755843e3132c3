"""The ``ask`` pipeline: a plain text in; three critical questions, up to two Socratic
questions with their weakness type and span, and — for a long document — a question
set with its AURA scores out.

Every part runs through the registered components of its task (the claims, template
or LLM generator of cqs, the claims or LLM generator of focus, AURA's evaluator), so
``ask`` gives what ``generate``/``evaluate`` would give on the same text; each part
carries its component's signature and, in words, its origin (``AskResult.origins``).
One embedding model is loaded per process and shared.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from maieutic.ask.document_questions import document_questions
from maieutic.ask.options import AskOptions, Part, llm_args, model_origin
from maieutic.ask.record import AskRecord
from maieutic.ask.schemes import guess_schemes
from maieutic.ask.socratic import OFFLINE as CLAIMS_ORIGIN
from maieutic.ask.socratic import socratic_questions
from maieutic.errors import DataError
from maieutic.language.wellformed import is_well_formed
from maieutic.llm.budget import SPENT
from maieutic.registry import create
from maieutic.tasks.cqs.api import FACTS, OFFLINE, CQDataset, Intervention
from maieutic.terminal_text import has_visible_text, terminal_safe

MAX_ASSESSED_CHARS = 50_000
"""The longest document whose question set ``ask`` assesses with AURA (about 15 pages,
some 10 s on 2 cores); beyond it ``maieutic evaluate aura`` is the tool."""
LONG_DOCUMENT_CHARS = 1500
"""From this length (or four paragraphs) a text is a document: AURA assesses a question
set about it. A paragraph-long argument gets only the critical and Socratic questions."""
FORMAT = AskRecord.FORMAT
SCORER_ORIGIN = "offline scheme templates, chosen by the scorer"


@dataclass(kw_only=True)
class AskResult:
    """What ``ask`` found for one text."""

    text: str
    source: str
    cqs: list[dict[str, Any]] = field(default_factory=list)
    focus: list[dict[str, Any]] = field(default_factory=list)
    aura: dict[str, Any] | None = None
    signatures: dict[str, str] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)
    """Which generator wrote the critical (``cqs``) and Socratic (``focus``) questions,
    in words — and why, when the offline one stood in for the model."""
    none: dict[str, str] = field(default_factory=dict)
    """A part with no question (``cqs``): why, and what would help."""
    warnings: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    """Parts that fell short (a model call failed, a reply had no usable question):
    what was found is kept, and the command exits with code 1."""
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The result as written by ``--format json`` (format ``maieutic.ask/1``)."""
        fields = asdict(self)
        fields["none"] = fields["none"] or None  # absent where every part has questions
        return AskRecord(**fields).to_json()


def _is_document(text: str, options: AskOptions) -> bool:
    if options.document is not None:
        return options.document
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    return len(text) >= LONG_DOCUMENT_CHARS or len(paragraphs) >= 4


def critical_questions(text: str, options: AskOptions) -> Part:
    """Up to three critical questions (see ``_critical_questions``); where there is
    none, the part says why and what would help (``Part.none``)."""
    part = _critical_questions(text, options)
    if not part.questions:
        part.none = _what_helps(part, document=_is_document(text, options), options=options)
    return part


def _what_helps(part: Part, *, document: bool, options: AskOptions) -> str:
    """Why there is no critical question, and what would help, in a line."""
    said = " ".join(part.warnings)
    if FACTS in said:  # no critical question is worth asking of facts: a question set is
        where = (
            "its question set is below" if document else "ask for its question set (--question-set)"
        )
        return f"the text states facts and argues for nothing: {where}"
    why = "no complete claim found" if "no complete claim" in said else "no claim a question fits"
    if options.uses_llm:
        return f"{why}, and the model wrote no usable question"
    return f"{why}: try --llm with a model"


def _critical_questions(text: str, options: AskOptions) -> Part:
    """Up to three critical questions (each with the claim it challenges, or the schemes
    it came from), with the generator's signature and origin, warnings, and why it fell
    short (None when it did not).

    Offline, the claims generator reads the text's own claims; with ``--scorer`` the
    scheme templates are over-generated and the scorer selects; with a model, the LLM
    generator writes them. The well-formedness check applies to all three.
    """
    schemes = guess_schemes(text)
    item = Intervention(intervention_id="ask", intervention=text, schemes=schemes)
    dataset = CQDataset(interventions={"ask": item}, source="<ask>")
    if not options.scorer:
        if options.uses_llm:
            return _model_first_part(text, dataset, options)
        return _claims_part(text, dataset)
    selector = f"scorer:{options.scorer}"
    if options.uses_llm:
        generator = create(
            "generator",
            task="cqs",
            name="llm",
            candidates=options.candidates,
            selector=selector,
            **llm_args(options),
        )
    else:
        generator = create("generator", task="cqs", name="template", selector=selector)
    run = generator.generate(dataset)
    [outcome] = run.outcomes
    failure = f"critical questions: {outcome.reason}" if outcome.failed else None
    warnings = list(run.warnings)
    if outcome.note:
        warnings.append(f"critical questions: {outcome.note}")
    if outcome.failed:
        # nothing the check accepts (a failed part never lists a rejected candidate):
        # the offline questions, headed with why (still exit 1)
        offline = _claims_part(text, dataset)
        origin = f"{CLAIMS_ORIGIN}: {_why_offline(outcome.reason)}"
        warnings += offline.warnings
        return Part(
            questions=offline.questions,
            signature=offline.signature,
            origin=origin,
            warnings=warnings,
            failure=failure,
        )
    questions = [{"question": q, "schemes": list(schemes)} for q in outcome.questions]
    signature = generator.signature(dataset)
    origin = model_origin(signature) if options.uses_llm else SCORER_ORIGIN
    return Part(
        questions=questions,
        signature=str(signature),
        origin=origin,
        warnings=warnings,
        failure=failure,
    )


def _why_offline(reason: str) -> str:
    """Why the offline questions stand in for a model's, in words."""
    if SPENT in reason:
        return "the model's time budget ran out"
    if "ill-formed" in reason:
        return "the model's questions were all ill-formed"
    if "no usable question" in reason:
        return "the model wrote no usable question"
    return "the model call failed"


def _model_first_part(text: str, dataset: CQDataset, options: AskOptions) -> Part:
    """The model's usable critical questions first, the claims generator's in the slots
    it leaves empty (``maieutic.tasks.cqs.model_first``); the heading says how many came
    from where. A model call that failed is a failure of the part (exit 1), the offline
    questions standing in. A model measured to write worse critical questions than the
    rules is not asked for them: the offline questions, headed with why."""
    generator = create(
        "generator",
        task="cqs",
        name="model-first",
        candidates=options.candidates,
        **llm_args(options),
    )
    signature = generator.signature(dataset)
    if generator.order == OFFLINE:
        offline = _claims_part(text, dataset)
        return Part(
            questions=offline.questions,
            signature=str(signature),
            origin=f"{CLAIMS_ORIGIN}: {generator.why_offline}",
            warnings=offline.warnings,
        )
    run = generator.model.generate(dataset)
    [model_outcome] = run.outcomes
    choice = generator.choice(dataset, model_outcome)
    questions = []
    for kept in choice.kept:
        entry: dict[str, Any] = {"question": kept.question, "written_by": kept.written_by}
        if kept.claim is not None:  # a claims question: the claim it challenges
            entry["claim"] = _challenged(choice.reading, kept.claim)
            entry["framing"] = kept.framing
        questions.append(entry)
    warnings = [f"critical questions: {w}" for w in run.warnings]
    if choice.note:
        warnings.append(f"critical questions: {choice.note}")
    failure = None
    model = model_origin(signature)
    if model_outcome.failed and not model_outcome.candidates:  # the model gave nothing
        why = _why_offline(model_outcome.reason)
        origin = f"{CLAIMS_ORIGIN}: {why}"
        if why.endswith("failed") or SPENT in model_outcome.reason:  # not the reply's fault
            failure = f"critical questions: {model_outcome.reason}"
    elif choice.kept and choice.from_model == len(choice.kept):
        origin = model
    else:  # the note's first part: how many from where, and why
        origin = f"{model}, with the {CLAIMS_ORIGIN} — {(choice.note or '').split('; ')[0]}"
    return Part(
        questions=questions,
        signature=str(signature),
        origin=origin,
        warnings=warnings,
        failure=failure,
    )


def _claims_part(text: str, dataset: CQDataset) -> Part:
    """The offline claims generator's critical questions, each with its claim."""
    generator = create("generator", task="cqs", name="claims")
    found = generator.questions_for(text)
    chosen = {s.candidate.question: s.candidate for s in found.candidates}
    questions = [
        {
            "question": q,
            "claim": _challenged(found.reading, chosen[q].claim),
            "framing": chosen[q].framing,
        }
        for q in found.questions
    ]
    warnings = [f"critical questions: {found.note}"] if found.note else []
    return Part(
        questions=questions,
        signature=str(generator.signature(dataset)),
        origin=CLAIMS_ORIGIN,
        warnings=warnings,
    )


def _challenged(reading, index: int) -> str:
    """What a claims-generator question is about: its claim, or (index -n) the n-th key
    phrase of the text."""
    return reading.claims[index].text if index >= 0 else reading.key_phrases[-index - 1]


class NoDocumentQuestions(DataError):
    """No question about the document was written (with the model calls that failed)."""

    def __init__(self, message: str, failures: list[str]) -> None:
        super().__init__(message)
        self.failures = failures


def assessed_questions(text: str, options: AskOptions) -> tuple[dict, str]:
    """A question set about the document and its four AURA scores (with the spec of
    the registered evaluator that gave them)."""
    from maieutic.tasks.aura.api import Document

    document = Document(text=text, source="<ask>")
    if options.uses_llm:
        generator = create("generator", task="aura", name="llm", **llm_args(options))
        run = generator.generate(document)
        questions = list(dict.fromkeys(q for o in run.outcomes for q in o.questions))
        questions = [q for q in questions if is_well_formed(q, text)]
        failures = [o.failure for o in run.outcomes if o.failure]
        origin = "llm"
        if not questions:  # as for the Socratic part: the offline way, and say so
            why = "the model wrote no usable question"
            if failures:
                spent = any(SPENT in f for f in failures)
                why = "the model's time budget ran out" if spent else "the model's call failed"
            questions, origin = document_questions(text), f"paragraph templates: {why}"
    else:
        questions, origin, failures = document_questions(text), "paragraph templates", []
    if not questions:  # AURA refuses an empty set: its scores would say nothing
        how = "by the model or offline" if options.uses_llm else "offline"
        raise NoDocumentQuestions(
            f"no question about the document could be written {how}", failures
        )
    from maieutic.run import evaluate

    [result] = evaluate(
        "aura", document, submissions=[_question_set(questions)], evaluator=_aura_evaluator()
    )
    summary = {
        k: result.summary[k] for k in ("answerability", "coverage", "non_redundancy", "entropy")
    }
    report = {
        "questions": [
            {
                "question": r["question"],
                "answerable": r["answerable"],
                "score": r["score"],
                "span": r["span"],
            }
            for r in result.items
        ],
        "origin": origin,
        "scores": summary,
        "score": result.score,
        "failures": failures,
        "evaluator": result.evaluator.to_json(),
    }
    return report, str(result.signature)


def _aura_evaluator():
    """The registered offline AURA evaluator with its defaults, so its results carry
    the spec that rebuilds it; it reads vectors through the process's shared encoder
    (same model and settings), so ask loads the embedding model once."""
    from maieutic.embed.encoder import shared_encoder

    evaluator = create("evaluator", task="aura", name="aura")
    evaluator.reranker.encoder = shared_encoder(evaluator.reranker.encoder.model_name)
    return evaluator


def _question_set(questions: list[str]):
    from maieutic.tasks.aura.api import QuestionSet

    return QuestionSet(questions=questions, source="<ask>", name="ask")


def ask_text(
    text: str,
    options: AskOptions | None = None,
    source: str = "<argument>",
    *,
    on_step: Callable[[str], None] | None = None,
) -> AskResult:
    """Every part of ``ask`` for ``text`` (already read and checked); ``on_step`` is
    told which part is running (the web app shows it).

    Terminal escape sequences and control characters are removed from the text first
    (with a warning), and a text with nothing visible left — zero-width characters,
    joiners, spaces — is refused as empty (``DataError``)."""
    step = on_step or (lambda _: None)
    from maieutic.language.english import looks_english

    options = options or AskOptions()
    start = time.perf_counter()
    text, removed = _cleaned(text, source=source)
    result = AskResult(text=text, source=source)
    if removed:
        result.warnings.append(
            f"{removed} character(s) of terminal escape sequences and control characters "
            "removed from the text"
        )
    if not looks_english(text):
        result.warnings.append(
            "the text does not look English: the templates, cues and embedded models are "
            "English-only, so the questions may not fit it"
        )
    from maieutic.llm.budget import time_budget

    # one budget for every model call of this ask (the offline parts take no time of it)
    with time_budget(options.budget if options.uses_llm else None):
        step("writing critical questions")
        result.cqs = _take(result, "cqs", critical_questions(text, options))
        step("finding weaknesses and Socratic questions")
        result.focus = _take(result, "focus", socratic_questions(text, options))
        if _is_document(text, options):
            step("assessing questions about the document (AURA)")
            _assess(text, options, result)
    result.seconds = round(time.perf_counter() - start, 3)
    return result


def _take(result: AskResult, name: str, part: Part) -> list[dict[str, Any]]:
    """The part's questions, its signature, origin, warnings and failure filed."""
    result.signatures[name] = part.signature
    result.origins[name] = part.origin
    if part.none:
        result.none[name] = part.none
    result.warnings += part.warnings
    result.failures += [part.failure] if part.failure else []
    return part.questions


def _cleaned(text: str, *, source: str) -> tuple[str, int]:
    """The text without escape sequences and control characters, and how many
    characters went; refused when nothing visible is left."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n")
    cleaned = terminal_safe(lines)
    if not has_visible_text(cleaned):
        raise DataError("the text is empty: nothing to ask about", where=source)
    return cleaned.strip(), len(lines) - len(cleaned)


def _assess(text: str, options: AskOptions, result: AskResult) -> None:
    """The AURA part, which never costs the other parts their questions."""
    if len(text) > MAX_ASSESSED_CHARS:
        result.warnings.append(
            f"the document has {len(text):,} characters, over the {MAX_ASSESSED_CHARS:,} "
            "that ask assesses with AURA: no question set (use maieutic evaluate aura)"
        )
        return
    try:
        result.aura, result.signatures["aura"] = assessed_questions(text, options)
    except DataError as exc:  # nothing to ask about (a table of numbers, one sentence…)
        result.warnings.append(f"no question set assessed: {exc.message}")
        failures = exc.failures if isinstance(exc, NoDocumentQuestions) else []
        result.failures += [f"document questions: {f}" for f in failures[:1]]
        return
    result.failures += [f"document questions: {f}" for f in result.aura["failures"][:1]]


def text_fingerprint(text: str) -> str:
    """A short content hash of the text (for logs and the web app)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
