"""What a scorer learns from is registered by its task (registry kind
``scorer-examples``): ``train scorer --task T`` finds a task's sources, including a new
task's, without the scorer machinery naming any task."""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest

from maieutic import registry
from maieutic.core import Task
from maieutic.errors import DataError
from maieutic.scorers.examples import Examples
from maieutic.scorers.sources import ExampleSource, example_source, scorer_tasks
from maieutic.scorers.training_run import read_examples, train_from_file

TEXTS = [f"Text {i}: we should act now because the problem {i} grows." for i in range(6)]


class FakeEncoder:
    """A deterministic stand-in for the sentence encoder (no model is loaded)."""

    identity = "fake-encoder"
    model_name = "fake"

    def encode(self, texts):
        rows = [np.random.default_rng(zlib.crc32(t.encode())).normal(size=8) for t in texts]
        return np.array([r / np.linalg.norm(r) for r in rows], dtype=np.float32)


def _cqs_dataset(path):
    path.write_text(
        json.dumps(
            {
                f"T{i}": {
                    "intervention_id": f"T{i}",
                    "intervention": text,
                    "cqs": [
                        {
                            "id": "1",
                            "cq": f"Is there evidence that problem {i} grows?",
                            "label": "Useful",
                        },
                        {"id": "2", "cq": "What is the capital of France?", "label": "Invalid"},
                        {"id": "3", "cq": "Who spoke?", "label": "Unhelpful"},
                    ],
                }
                for i, text in enumerate(TEXTS)
            }
        )
    )
    return path


def test_the_tasks_register_what_their_scorers_learn_from():
    assert {"cqs", "aura"} <= set(scorer_tasks())
    assert registry.names("scorer-examples", task="cqs") == ["references", "templates"]
    cqs = example_source("cqs")
    assert (cqs.features, cqs.source) == ("pair-v3", {"examples": "references"})
    assert cqs.spec.to_json() == {
        "kind": "scorer-examples", "task": "cqs", "name": "references",
        "args": {"outputs": None},
    }  # fmt: skip
    assert example_source("aura").features == "pair-v1"
    templates = example_source("cqs", kind="templates")
    assert templates.features == "pair-v2"
    assert templates.source == {
        "examples": "templates", "templates": ["built-in"], "match": "sts cosine > 0.6",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("task", "kind", "options", "message"),
    [
        ("aura", "templates", {}, "--examples templates is for --task cqs"),
        ("cqs", "nonsense", {}, "--examples must be one of references, templates"),
        ("focus", "references", {}, "--task must be one of"),
        ("cqs", "references", {"schemes": "s.jsonl"}, "--schemes: only with --examples templates"),
        ("cqs", "templates", {"scheme_mapping": "m.csv"}, "--scheme-mapping needs --schemes"),
    ],
)
def test_usage_errors_name_what_goes_where(task, kind, options, message):
    with pytest.raises(DataError, match=message):
        example_source(task, kind=kind, **options)


def test_options_left_as_none_are_not_given():
    assert example_source("aura", kind="references", schemes=None).source == {
        "examples": "references"
    }


def test_a_task_reads_its_labelled_pairs(tmp_path):
    examples = read_examples("cqs", _cqs_dataset(tmp_path / "d.json"))
    assert examples.positive == "Useful" and len(examples) == 18
    assert examples.groups[:3] == ["T0"] * 3 and examples.ordinal[:3] == [2.0, 0.0, 1.0]
    ratings = [
        {"id": f"p{i}", "passage": text, "questions": [
            {"prediction": "What grows?", "source": "SQuAD_T5", "answerability": 3},
            {"prediction": "Who won?", "source": "HotpotQA_T5", "answerability": 1.5},
        ]}
        for i, text in enumerate(TEXTS)
    ]  # fmt: skip
    (tmp_path / "q.json").write_text(json.dumps(ratings))
    rated = read_examples("aura", tmp_path / "q.json")
    assert rated.positive == "answerable" and rated.labels[:2] == ["answerable", "unanswerable"]
    assert rated.systems[:2] == ["T5", "T5"] and rated.ordinal[:2] == [3.0, 1.5]


def test_too_few_texts_cannot_be_cross_validated(tmp_path):
    data = _cqs_dataset(tmp_path / "d.json")
    records = json.loads(data.read_text())
    data.write_text(json.dumps({k: records[k] for k in list(records)[:4]}))
    with pytest.raises(DataError, match="4 texts: grouped cross-validation needs at least 5"):
        read_examples("cqs", data)


@pytest.fixture
def toy_task():
    """A task registered from outside the package (as a plug-in would), removed after."""
    before = dict(registry._ENTRIES)

    @registry.register("task", task="toyscore", name="toyscore")
    def task() -> Task:
        """A toy task."""
        return Task(
            name="toyscore",
            description="A toy task.",
            load_reference=lambda p: None,
            load_submission=lambda p: None,
        )

    def read(path, encoder, store) -> Examples:
        out = Examples(positive="good")
        for n, line in enumerate(path.read_text().splitlines()):
            context, question, label = line.split("|")
            out.add(
                context,
                question=question,
                label=label,
                ordinal=float(label == "good"),
                group=str(n // 3),
            )
        return out

    @registry.register("scorer-examples", task="toyscore", name="references")
    def references() -> ExampleSource:
        """Lines of context|question|label."""
        return ExampleSource(read=read, features="pair-v2", source={"examples": "references"})

    yield "toyscore"
    registry._ENTRIES.clear()
    registry._ENTRIES.update(before)


def test_a_new_task_trains_a_scorer_with_no_core_edit(toy_task, tmp_path):
    lines = [
        f"text {g}|{'why is that true' if i == 0 else 'what colour'} {g} {i}?|"
        f"{'good' if i == 0 else 'bad'}"
        for g in range(6)
        for i in range(3)
    ]
    data = tmp_path / "toy.txt"
    data.write_text("\n".join(lines))
    assert toy_task in scorer_tasks()
    trained = train_from_file(toy_task, data, FakeEncoder(), c=1.0, cache=False)
    manifest = trained.scorer.manifest
    assert manifest["task"] == toy_task and manifest["positive"] == "good"
    assert manifest["training"]["examples"] == "references"
    assert manifest["features"] == {
        "version": "pair-v2", "encoder": "fake-encoder", "encoder_model": "fake",
    }  # fmt: skip
    assert trained.report["n"] == 18 and trained.report["n_groups"] == 6
