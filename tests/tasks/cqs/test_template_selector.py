"""A selection scorer learned from the template generator's own candidates: each
candidate takes the label the STS evaluation would give it (its most similar
reference's, when their cosine exceeds 0.6), the training run records where its pairs
came from, and (slow) the trained selector drives ``generate cqs``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from maieutic.scorers.model import load_scorer
from maieutic.tasks.cqs.data import CQDataset, Intervention, ReferenceQuestion
from maieutic.tasks.cqs.schemes import SchemeLibrary
from maieutic.tasks.cqs.scorer_templates import OTHER, candidate_labels, template_examples
from maieutic.tasks.cqs.template_generator import TemplateGenerator


def _unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=float)
    return v / np.linalg.norm(v)


def test_candidates_inherit_the_label_of_the_reference_they_match():
    vectors = {
        "useful ref": _unit(1, 0, 0),
        "invalid ref": _unit(0, 1, 0),
        "same as useful": _unit(1, 0, 0),
        # cosine 0.8 with the invalid reference, 0.6 with the useful one: the most
        # similar reference decides, not the best label
        "nearer invalid": np.array([0.6, 0.8, 0.0]),
        # cosine exactly 0.6 with the useful reference: a match must exceed it
        "at threshold": np.array([0.6, 0.0, 0.8]),
        "far": _unit(0, 0, 1),
    }
    refs = [("useful ref", "Useful"), ("invalid ref", "Invalid")]
    candidates = ["same as useful", "nearer invalid", "at threshold", "far"]
    assert candidate_labels(candidates, refs, vectors) == ["Useful", "Invalid", "NAE", "NAE"]
    assert candidate_labels(candidates, refs, vectors, threshold=0.5) == [
        "Useful", "Invalid", "Useful", "NAE",
    ]  # fmt: skip
    assert candidate_labels(["far"], [], vectors) == ["NAE"]
    assert candidate_labels([], refs, vectors) == []


TEXTS = [
    "SENATOR: Prices rose because the bank cut rates. We must raise rates again.",
    "MAYOR: Traffic grew because the city built more roads. We must stop building roads.",
    "GOVERNOR: Crime fell because we hired more police. We should hire more officers.",
    "MINISTER: Exports rose because the currency weakened. We must keep the currency low.",
    "DEAN: Grades improved because classes got smaller. We should cap class sizes.",
    "CHAIR: Sales dropped because prices went up. We must lower our prices now.",
]
SCHEMES = ("CauseToEffect", "PracticalReasoning")


def _dataset() -> CQDataset:
    """Each intervention's first template filling is a Useful reference, its last an
    Unhelpful one, and an off-topic question an Invalid one."""
    generator = TemplateGenerator(SchemeLibrary.builtin(), every_fill=True)
    interventions = {}
    for n, text in enumerate(TEXTS):
        item = Intervention(intervention_id=f"i{n}", intervention=text, schemes=SCHEMES)
        candidates = generator.candidates(item)
        refs = (
            ReferenceQuestion(id="0", cq=candidates[0], label="Useful"),
            ReferenceQuestion(id="1", cq=candidates[-1], label="Unhelpful"),
            ReferenceQuestion(id="2", cq="How many legs does a spider have?", label="Invalid"),
        )
        interventions[item.intervention_id] = Intervention(
            intervention_id=item.intervention_id, intervention=text, schemes=SCHEMES, cqs=refs
        )
    return CQDataset(interventions=interventions)


def _dump(dataset: CQDataset, path) -> None:
    path.write_text(
        json.dumps(
            {
                iid: {
                    "intervention_id": iid,
                    "intervention": item.intervention,
                    "dataset": "test",
                    "schemes": list(item.schemes),
                    "cqs": [{"id": r.id, "cq": r.cq, "label": r.label} for r in item.cqs],
                }
                for iid, item in dataset.interventions.items()
            }
        )
    )


@pytest.mark.slow
def test_template_examples_label_every_distinct_candidate():
    from maieutic.embed.encoder import Encoder

    dataset = _dataset()
    examples = template_examples(dataset, [SchemeLibrary.builtin()], Encoder())
    generator = TemplateGenerator(SchemeLibrary.builtin(), every_fill=True)
    for iid, item in dataset.interventions.items():
        rows = [i for i, g in enumerate(examples.groups) if g == iid]
        questions = [examples.questions[i] for i in rows]
        assert questions == generator.candidates(item)  # each distinct candidate once
        labels = dict(zip(questions, [examples.labels[i] for i in rows], strict=True))
        assert labels[item.cqs[0].cq] == "Useful"  # it is the Useful reference
        assert labels[item.cqs[1].cq] == OTHER  # it is the Unhelpful one
    assert set(examples.labels) == {"Useful", OTHER}
    assert examples.ordinal == [1.0 if label == "Useful" else 0.0 for label in examples.labels]


@pytest.mark.slow
def test_train_from_templates_then_select_with_it(cli, tmp_path):
    data = tmp_path / "labelled.json"
    _dump(_dataset(), data)
    out = tmp_path / "selector"
    result = cli(
        "train", "scorer", "--task", "cqs", "--data", data, "--examples", "templates",
        "--out", out, "--c", "1",
    )  # fmt: skip
    assert result.code == 0, result.err
    assert "cqs scorer (templates)" in result.out
    manifest = load_scorer(out).manifest
    assert manifest["training"]["examples"] == "templates"
    assert manifest["training"]["templates"] == ["built-in"]
    assert manifest["training"]["match"] == "sts cosine > 0.6"
    assert manifest["features"]["version"] == "pair-v2"  # n-grams do not help selection
    references = tmp_path / "references"
    assert cli("train", "scorer", "--task", "cqs", "--data", data, "--out", references).code == 0
    # what the pairs were is part of the scorer's identity
    assert load_scorer(references).manifest["training"]["examples"] == "references"
    assert load_scorer(references).manifest["features"]["version"] == "pair-v3"
    assert load_scorer(references).identity() != load_scorer(out).identity()

    submission = tmp_path / "generated.json"
    generated = cli(
        "generate", "cqs", "--data", data, "--out", submission, "--generator", "template",
        "--selector", f"scorer:{out}",
    )  # fmt: skip
    assert generated.code == 0, generated.err
    assert all(len(item["cqs"]) == 3 for item in json.loads(submission.read_text()).values())
    # as an evaluator it works, with a warning that it is a selector
    scored = cli("evaluate", "cqs", "--data", data, submission, "--evaluator", f"scorer:{out}")
    assert scored.code == 0, scored.err
    assert "learned from template candidates" in scored.err


def test_template_examples_usage_errors(cli, tmp_path):
    data = tmp_path / "labelled.json"
    _dump(_dataset(), data)
    qgeval = cli(
        "train", "aura", "--qgeval", data, "--examples", "templates", "--out-dir", tmp_path / "x"
    )  # templates are the critical-question generator's: train aura has no --examples
    assert qgeval.code == 2 and "No such option '--examples'" in qgeval.err
    schemes = tmp_path / "schemes.jsonl"
    schemes.write_text("")
    alone = cli(
        "train", "scorer", "--task", "cqs", "--data", data, "--schemes", schemes,
        "--out", tmp_path / "x",
    )  # fmt: skip
    assert alone.code == 2 and "go with --examples templates" in alone.err
