"""Using learned scorers: over-generation for the template generator (every plausible
slot filling, cause and effect kept in step, no "X and X", bounded), the feature sets
a scorer records, and (slow) a learned answerability scorer in AURA's evaluate and
meta-eval."""

from __future__ import annotations

import json

import numpy as np
import pytest

from maieutic.samples import sample_path
from maieutic.scorers.features import N_SURFACE, pair_features
from maieutic.tasks.cqs.data import Intervention
from maieutic.tasks.cqs.schemes import SchemeLibrary
from maieutic.tasks.cqs.template_generator import TemplateGenerator, fill_every_way
from maieutic.tasks.cqs.text_facts import read_fact_options, read_facts

TEXT = (
    "SENATOR: Prices rose because the bank cut rates. Wages fell, so families borrowed "
    "more. We must raise rates again. Mexico and Canada did exactly that."
)


def test_fact_options_start_with_the_single_reading():
    facts, options = read_facts(TEXT), read_fact_options(TEXT)
    for field, values in options.items():
        assert values[0] == getattr(facts, field)
        assert len(values) == len(set(values)) <= 8
    # two causal sentences: two (cause, effect) pairs, in step
    assert options["cause"][:2] == ["the bank cut rates", "wages fell"]
    assert options["effect"][:2] == ["prices rose", "families borrowed more"]
    assert "Canada" in options["subject"] or "Mexico" in options["subject"]


def test_every_filling_keeps_cause_and_effect_in_step_and_skips_repeats():
    options = {
        "cause": ["c1", "c2"],
        "effect": ["e1", "e2"],
        "claim": ["k1", "k2", "k3"],
        "premise": ["p1", "k2"],
        "speaker": ["S"],
        "action": ["a"],
        "subject": ["s"],
    }
    pairs = fill_every_way("Does {cause} lead to {effect}?", options)
    assert pairs == ['Does "c1" lead to "e1"?', 'Does "c2" lead to "e2"?']  # never c1 → e2
    both = fill_every_way("Is {claim} backed by {premise}?", options)
    assert 'Is "k2" backed by "k2"?' not in both and len(both) == 5  # 3 × 2 − one repeat
    options["premise"] = ["k1"]
    assert fill_every_way("Is {claim} backed by {premise}?", options)[0] == (
        'Is "k1" backed by "k1"?'  # the first filling is kept even when it repeats
    )
    assert len(fill_every_way("{claim} {premise} {subject}", options, limit=2)) == 2


def test_over_generation_is_a_superset_and_is_signed(cli, tmp_path):
    item = Intervention(
        intervention_id="X", intervention=TEXT, schemes=("CauseToEffect", "PracticalReasoning")
    )
    plain = TemplateGenerator(SchemeLibrary.builtin()).candidates(item)
    every = TemplateGenerator(SchemeLibrary.builtin(), every_fill=True).candidates(item)
    assert set(plain) <= set(every) and len(every) >= 2 * len(plain)
    assert len(every) == len({q.lower() for q in every})  # deduplicated
    data = sample_path("cqs/sample_dataset.json")
    out = tmp_path / "g.json"
    generated = cli(
        "generate",
        "cqs",
        "--data",
        data,
        "--out",
        out,
        "--generator",
        "template",
        "--fill",
        "every",
    )
    assert generated.code == 0, generated.err
    meta = json.loads((tmp_path / "g.meta.json").read_text())
    assert "fill:every" in json.dumps(meta) or meta["signature"].get("fill") == "every"
    refused = cli(
        "generate", "cqs", "--data", data, "--out", out, "--generator", "llm", "--fill", "every"
    )
    assert refused.code == 2 and "--fill" in refused.err


class _Encoder:
    """Deterministic unit vectors by text: enough to check the feature layout."""

    identity = "fake"
    model_name = "fake"

    def encode(self, texts):
        rng = [np.random.default_rng(abs(hash(t)) % 2**32).normal(size=8) for t in texts]
        return np.stack([v / np.linalg.norm(v) for v in rng]).astype(np.float32)


def test_feature_sets_have_their_documented_layout():
    contexts, questions = ["a text", "a text"], ["why?", "how so?"]
    v2 = pair_features(_Encoder(), contexts, questions=questions)
    v1 = pair_features(_Encoder(), contexts, questions=questions, version="pair-v1")
    assert v2.shape == (2, 8 + 1 + N_SURFACE)
    assert v1.shape == (2, 3 * 8 + 1 + N_SURFACE)
    np.testing.assert_allclose(v1[:, 16:24], v1[:, :8] * v1[:, 8:16], rtol=1e-6)  # product
    np.testing.assert_allclose(v1[:, 24], v2[:, 8], rtol=1e-6)  # the same cosine
    with pytest.raises(ValueError, match="unknown feature set"):
        pair_features(_Encoder(), contexts, questions=questions, version="pair-v9")


TOPICS = [
    ("The bridge opened in 1932 and carries trains across the river.", "When did the bridge open?"),
    ("The library lends books, maps and music to every resident.", "What does the library lend?"),
    (
        "The volcano last erupted in 1980, covering the valley in ash.",
        "When did the volcano erupt?",
    ),
    ("The orchard grows apples and pears on the southern hills.", "What does the orchard grow?"),
    ("The ferry crosses the bay twice a day in summer.", "How often does the ferry cross?"),
    ("The museum shows fossils found by local farmers.", "What does the museum show?"),
    ("The stadium seats forty thousand people for football.", "How many people does it seat?"),
]
OFF_TOPIC = ["Who wrote the symphony about the moon?", "What colour is a giraffe's tongue?"]


def _qgeval(path):
    instances = [
        {
            "id": f"p{n}",
            "passage": passage,
            "questions": [
                {"prediction": question, "source": "SQuAD_good", "answerability": 3.0},
                {"prediction": OFF_TOPIC[n % 2], "source": "SQuAD_bad", "answerability": 1.0},
            ],
        }
        for n, (passage, question) in enumerate(TOPICS)
    ]
    path.write_text(json.dumps(instances))
    return path


@pytest.mark.slow
def test_learned_answerability_in_evaluate_and_meta_eval(cli, tmp_path):
    qgeval = _qgeval(tmp_path / "qg.json")
    scorer = tmp_path / "scorer"
    trained = cli("train", "scorer", "--task", "aura", "--qgeval", qgeval, "--out", scorer,
                  "--c", "1")  # fmt: skip
    assert trained.code == 0, trained.err
    assert json.loads((scorer / "manifest.json").read_text())["features"]["version"] == "pair-v1"
    out = tmp_path / "m.json"
    result = cli("meta-eval", "aura", "--qgeval", qgeval, "--answerability", f"scorer:{scorer}",
                 "--out", out)  # fmt: skip
    assert result.code == 0, result.err
    assert "were in the answerability scorer's training data" in result.err
    report = json.loads(out.read_text())
    assert report["learned"]["roc_auc_unanswerable"] == 1.0  # it learned the split
    assert report["signature"]["scorer_task"] == "aura"
    assert "learned scorer" in result.out
    # a new document: the on-topic question answerable, the off-topic one not
    document = tmp_path / "doc.md"
    document.write_text("The lighthouse was built in 1871 and guides ships past the reef.\n")
    questions = tmp_path / "qs.json"
    questions.write_text(json.dumps(["When was the lighthouse built?", OFF_TOPIC[0]]))
    results = tmp_path / "r.json"
    scored = cli("evaluate", "aura", document, questions, "--answerability", f"scorer:{scorer}",
                 "--out", results)  # fmt: skip
    assert scored.code == 0, scored.err
    [r] = json.loads(results.read_text())["results"]
    p = [item["answerable_probability"] for item in r["items"]]
    assert p[0] > p[1]
    assert r["signature"]["answerability"] == "scorer"
    assert r["signature"]["scorer_data"] == report["signature"]["scorer_data"]
    wrong = cli("evaluate", "aura", document, questions, "--answerability", "cosine")
    assert wrong.code == 2 and "scorer:DIR" in wrong.err


@pytest.mark.slow
def test_a_cqs_scorer_is_refused_for_answerability(cli, tmp_path):
    from tests.test_scorers import TINY

    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(TINY))
    scorer = tmp_path / "s"
    assert cli("train", "scorer", "--task", "cqs", "--data", data, "--out", scorer).code == 0
    document = tmp_path / "doc.md"
    document.write_text("The lighthouse was built in 1871 and guides ships past the reef.\n")
    questions = tmp_path / "qs.json"
    questions.write_text(json.dumps(["When was the lighthouse built?"]))
    result = cli("evaluate", "aura", document, questions, "--answerability", f"scorer:{scorer}")
    assert result.code == 2 and "trained for 'cqs', not aura" in result.err
