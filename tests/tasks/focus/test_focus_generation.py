"""FOCUS generation: the cue baseline (hand-written cases, exact offsets on every dev
argument, the dev goal), reply parsing of real-looking model output, and the LLM
generator with a scripted backend; the commands end to end."""

from __future__ import annotations

import json
import time

import pytest

from maieutic.language.wellformed import is_well_formed
from maieutic.llm.backends.scripted import ScriptedBackend
from maieutic.llm.client import LLMClient, PermanentError
from maieutic.llm.store import CallStore
from maieutic.llm.types import GenerationParams
from maieutic.registry import create
from maieutic.samples import sample_path
from maieutic.tasks.focus.classification import classification_scores
from maieutic.tasks.focus.cue_detector import CueDetector
from maieutic.tasks.focus.data import load_arguments, load_gold, load_predictions
from maieutic.tasks.focus.generate import to_prediction_set
from maieutic.tasks.focus.llm_focus import LLMFocusGenerator
from maieutic.tasks.focus.llm_prompts import PromptContext
from maieutic.tasks.focus.reply_parsing import parse_reply, split_list
from maieutic.tasks.focus.type_labels import FocusItem, FocusSet

DETECT = CueDetector().detect


@pytest.mark.parametrize(
    ("argument", "category", "type_id", "span"),
    [
        (
            "Nobody reads books anymore, so libraries should close.",
            "clarity",
            "OG",
            "Nobody reads books anymore",
        ),
        (
            "Honestly I think the plan is stupid. It costs too much.",
            "assumptions",
            "BS",
            "Honestly I think the plan is stupid",
        ),
        (
            "Crime fell after the lights went up, because the lights scare thieves.",
            "implication_consequences",
            "QCE",
            "because the lights scare thieves",
        ),
        (
            "Uniforms help. For example, my school had them and we behaved.",
            "reasons_evidence",
            "WE",
            "For example",
        ),
        (
            "Phones are ruining kids today.",
            "alternate_viewpoints_perspectives",
            "TC",
            "Phones are ruining kids today",
        ),
    ],
)
def test_each_cue_gives_the_shortest_clause_of_its_first_occurrence(
    argument, category, type_id, span
):
    labels = {x.type: x for x in DETECT(argument, category)}
    label = labels[type_id]
    assert label.text == span
    assert argument[label.start : label.end] == span
    assert span in label.question


def test_category_restricts_types_and_fixes_slots():
    argument = "Everyone knows taxes are theft, and I think the state is stupid."
    clarity = DETECT(argument, "clarity")
    assert {x.type for x in clarity} <= {"VAT", "OG"}
    assert all(x.slot == ("VAT", "OG").index(x.type) + 1 for x in clarity)
    assert len(DETECT(argument, None)) <= 2


def test_default_types_follow_their_definitions():
    claim = "The city should ban cars from the centre."
    assert "OSP" in {x.type for x in DETECT(claim, "alternate_viewpoints_perspectives")}
    reasons = {x.type for x in DETECT(claim, "reasons_evidence")}
    assert "LE" in reasons  # a claim with no support lacks evidence
    supported = DETECT(claim + " According to a study, traffic fell by 20%.", "reasons_evidence")
    assert {x.type for x in supported} == {"WE"}  # support given: probed as weak


def test_edge_sizes():
    assert DETECT("", None) == [] and DETECT("No.", "clarity") == []
    long_argument = ("Every rule has a cost because people always complain. " * 1000)[:50_000]
    started = time.perf_counter()
    labels = DETECT(long_argument, None)
    assert labels and all(long_argument[x.start : x.end] == x.text for x in labels)
    assert time.perf_counter() - started < 10  # generous: pysbd is skipped on long texts


def test_offsets_are_exact_on_every_dev_argument_and_the_goal_holds(focus_dir):
    gold = load_gold(focus_dir / "dev_gold.csv")
    run = create("generator", task="focus", name="cues").generate(gold)
    for outcome in run.outcomes:
        argument = gold.items[outcome.id].argument
        for label in outcome.labels:
            assert argument[label.start : label.end] == label.text
            # the question restates the span cleanly, or there is none (never a bad one)
            assert label.question is None or is_well_formed(label.question, argument)
    predicted = to_prediction_set(run.outcomes, gold, "cues")
    pairs = [(gold.items[k], predicted.items[k]) for k in gold.items]
    category = classification_scores(pairs, "category")["with_none"]
    # the goal: above the released GPT-4 predictions (0.3095) on dev, category mode
    assert round(category["macro"]["f1"], 4) == 0.5927
    assert round(category["micro"]["f1"], 4) == 0.6089


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            'Classification: ["Bias and Subjectivity", "Lacks Evidence"]\n'
            'Span: ["Here is why I believe this", "the doctors recommended it"]',
            [("BS", "Here is why I believe this"), ("LE", "the doctors recommended it")],
        ),
        (
            "Classification: ['Vague or Ambiguous Terms for General Public?', "
            "'Overgeneralizing statement']\nSpan: ['don't, ever', 'all of them']",
            [("VAT", "don't, ever"), ("OG", "all of them")],
        ),
        (
            '```json\n{"classification": ["Lack of Evidence"], "span": ["Smoking is bad"]}\n```',
            [("LE", "Smoking is bad")],
        ),
        (
            'Sure! [{"type": "Implicit Assumption", "span": "of course"}] Hope it helps.',
            [("IE", "of course")],
        ),
        (
            '1. Others Stakeholder Perspective — span: "taxes are theft"\n'
            "2. Temporal Contrast: 'now'",
            [("OSP", "taxes are theft"), ("TC", "now")],
        ),
        (
            'Conclusion: X.\nFlaw: Y.\nClassification: ["None of the Above "]\nSpan: ["Null"]',
            [("NONE", "")],
        ),
        (
            'Classification: Lacks Evidence, Weak Evidence\nSpan: ["a, b", "c"]',
            [("LE", "a, b"), ("WE", "c")],
        ),
        (
            'Classification: ["Lacks Evidence", "Weak Evidence"] as argued above.\n'
            'Span: ["taxes don\'t work", "in 1990"] hope this helps',
            [("LE", "taxes don't work"), ("WE", "in 1990")],
        ),
        (
            '**Classification:** ["Lacks Evidence"]\n**Span:** ["prices rose"]',
            [("LE", "prices rose")],
        ),
        (
            "```python\n[{'type': 'Lack of Evidence', 'span': \"they don't, ever\"}]\n```",
            [("LE", "they don't, ever")],
        ),
    ],
)
def test_reply_forms(reply, expected):
    answer = parse_reply(reply)
    assert answer.parsed and answer.labels == expected and not answer.problems


def test_reply_problems_are_reported():
    answer = parse_reply(
        'Classification: ["Telepathy", "Weak Evidence", "Bias", "Lacks Evidence"]\n'
        'Span: ["x", "y", "z", "w"]'
    )
    assert answer.labels == [("WE", "y"), ("BS", "z")]
    assert answer.problems == ["unknown type 'Telepathy'", "3 types; the first 2 are kept"]
    assert not parse_reply("I cannot help with that.").parsed
    assert split_list("['it's', 'a, b']") == ["it's", "a, b"]


ARGUMENT = "Everyone knows the tax is theft. It was fine in the past."
OG_REPLY = (
    'Classification: ["Overgeneralized Statement"]\nSpan: ["Everyone knows the tax is theft"]'
)


def _dataset() -> FocusSet:
    item = FocusItem(id="a1", argument=ARGUMENT, category="clarity")
    other = FocusItem(id="a2", argument="Cats are better than dogs.", category=None)
    return FocusSet(items={"a1": item, "a2": other}, source="data.jsonl")


def _generator(backend, strategy="zero-shot", pool=None, rewrite=False, seed=1):
    client = LLMClient(backend, CallStore())
    context = PromptContext(pool=pool, shots=5, seed=0)
    return LLMFocusGenerator(
        client,
        create("strategy", task="focus", name=strategy),
        context,
        params=GenerationParams(seed=seed),
        rewrite=rewrite,
    )


def test_llm_generator_prompts_parses_and_grounds():
    backend = ScriptedBackend(
        [
            'Classification: ["Overgeneralizing statement"]\n'
            'Span: ["everyone knows the tax is theft."]',
            "I like turtles.",
        ]
    )
    run = _generator(backend).generate(_dataset())
    first, second = backend.history
    prompt = first.messages[1][1]
    assert "Vague or Ambiguous Terms" in prompt and "Overgeneralized Statement" in prompt
    assert "Lacks Evidence" not in prompt  # only the category's two types
    assert "Lacks Evidence" in second.messages[1][1]  # no category: all ten
    [label] = run.outcomes[0].labels
    assert (label.type, label.text, label.slot) == ("OG", "Everyone knows the tax is theft", 2)
    assert run.outcomes[1].labels == [] and run.outcomes[1].problems == [
        "no types found in the reply"
    ]


def test_llm_failures_are_outcomes_and_the_cache_answers_a_rerun():
    backend = ScriptedBackend(default='Classification: ["Weak Evidence"]\nSpan: ["in the past"]')
    generator = _generator(backend)
    first = generator.generate(_dataset())
    again = generator.generate(_dataset())
    assert first.stats.model_calls == 2 and again.stats.cache_hits == 2
    assert len(backend.history) == 2
    failing = _generator(ScriptedBackend(default=PermanentError("boom")), seed=2)  # not cached
    run = failing.generate(_dataset())
    assert all(o.failed and "boom" in o.failure for o in run.outcomes)


def test_few_shot_examples_never_include_an_argument_being_generated_for():
    pool = load_gold(sample_path("focus/shots.jsonl"))
    leaked = FocusItem(id="x", argument=pool.items["s1"].argument, category="clarity")
    dataset = FocusSet(items={"x": leaked}, source="d")
    backend = ScriptedBackend(default='Classification: ["None of the Above"]\nSpan: ["Null"]')
    run = _generator(backend, "few-shot", pool).generate(dataset)
    prompt = backend.history[0].messages[1][1]
    assert prompt.count(pool.items["s1"].argument) == 1  # only as the argument asked about
    assert prompt.count("Example ") == 5
    assert run.warnings and "never shown" in run.warnings[0]


def test_rewrite_keeps_the_span_or_falls_back_to_the_template():
    backend = ScriptedBackend(
        [
            OG_REPLY,
            'Classification: ["None of the Above"]\nSpan: ["Null"]',
            "Does Everyone knows the tax is theft really hold for all?",
        ]
    )
    run = _generator(backend, rewrite=True).generate(_dataset())
    assert (
        run.outcomes[0].labels[0].question
        == "Does Everyone knows the tax is theft really hold for all?"
    )
    backend = ScriptedBackend(
        [
            OG_REPLY,
            'Classification: ["None of the Above"]\nSpan: ["Null"]',
            "Is that always true?",
        ]
    )
    run = _generator(backend, rewrite=True, seed=2).generate(_dataset())
    assert run.outcomes[0].labels[0].question.startswith("Is “Everyone knows the tax is theft”")
    assert "template kept" in run.outcomes[0].problems[-1]


def test_rewrite_may_drop_the_trailing_punctuation_the_template_drops():
    backend = ScriptedBackend(
        [
            'Classification: ["Overgeneralized Statement"]\n'
            'Span: ["Everyone knows the tax is theft."]',
            'Classification: ["None of the Above"]\nSpan: ["Null"]',
            "Is it true that “Everyone knows the tax is theft”?",
        ]
    )
    run = _generator(backend, rewrite=True, seed=3).generate(_dataset())
    [label] = run.outcomes[0].labels
    assert label.text == "Everyone knows the tax is theft."
    assert label.question == "Is it true that “Everyone knows the tax is theft”?"
    assert not run.outcomes[0].problems


def test_generate_then_evaluate_through_the_cli(cli, focus_dir, tmp_path):
    out = tmp_path / "cues.jsonl"
    result = cli("generate", "focus", "--data", focus_dir / "dev_gold.csv", "--out", out)
    assert result.code == 0, result.err
    meta = json.loads((tmp_path / "cues.meta.json").read_text())
    assert meta["signature"]["generator"] == "cues" and meta["n_arguments"] == 140
    # the native file and the released-layout CSV score the same
    results = tmp_path / "r.json"
    evaluated = cli(
        "evaluate",
        "focus",
        "--gold",
        focus_dir / "dev_gold.csv",
        out,
        tmp_path / "cues.csv",
        "--no-span-embedding",
        "--out",
        results,
    )
    assert evaluated.code == 0, evaluated.err
    scores = [r["score"] for r in json.loads(results.read_text())["results"]]
    assert scores[0] == scores[1] and round(scores[0], 4) == 0.5927
    assert load_predictions(tmp_path / "cues.csv").items["1"].labels


def test_generate_options_that_do_not_apply_are_refused(cli, tmp_path):
    data = sample_path("focus/sample_arguments.jsonl")
    result = cli(
        "generate", "focus", "--data", data, "--out", tmp_path / "o.jsonl", "--strategy", "cot"
    )
    assert result.code == 2 and "--strategy does not apply" in result.err
    assert len(load_arguments(data)) == 5


def test_unreachable_server_is_one_line_and_files_are_written(cli, tmp_path):
    out = tmp_path / "o.jsonl"
    result = cli(
        "generate",
        "focus",
        "--data",
        sample_path("focus/sample_arguments.jsonl"),
        "--out",
        out,
        "--generator",
        "llm",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--llm",
        "m",
        "--retries",
        "0",
        "--timeout",
        "2",
    )
    assert result.code == 1
    assert result.err.strip().splitlines()[-1].startswith("all 5 arguments failed:")
    assert out.exists() and (tmp_path / "o.csv").exists()
