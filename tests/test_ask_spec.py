"""``ask`` builds AURA's evaluator through the registry, so the assessment in its
output carries the real spec (the evaluator's name and every argument), and that spec
rebuilds the same evaluator."""

from __future__ import annotations

import zlib

import numpy as np

from maieutic.ask.pipeline import AskOptions, ask_text, assessed_questions
from maieutic.embed.encoder import DEFAULT_BATCH_SIZE, Encoder
from maieutic.registry import rebuild
from tests.test_ask import DOCUMENT


def _fake_encode(self, texts):
    """Deterministic unit vectors: the pipeline runs without loading a model."""
    rows = [np.random.default_rng(zlib.crc32(t.encode())).normal(size=16) for t in texts]
    return np.array([r / np.linalg.norm(r) for r in rows], dtype=np.float32)


def test_the_assessment_names_its_evaluator_and_arguments(monkeypatch):
    monkeypatch.setattr(Encoder, "encode", _fake_encode)
    report, signature = assessed_questions(DOCUMENT, AskOptions())
    spec = report["evaluator"]
    assert (spec["kind"], spec["task"], spec["name"]) == ("evaluator", "aura", "aura")
    assert spec["args"] == {
        "threshold": 0.5,
        "threshold_rule": "gt",
        "embedding_model": "all-MiniLM-L6-v2",
        "embedding_backend": "torch",
        "batch_size": DEFAULT_BATCH_SIZE,
        "cache": True,
        "top_k": 5,
        "link_threshold": 0.85,
        "entropy": "paper",
        "non_redundancy": "paper",
        "answerability": None,
    }
    assert rebuild(spec).spec.to_json() == spec
    assert signature.startswith("task:aura|eval:aura")


def test_the_spec_is_in_the_json_output(monkeypatch):
    monkeypatch.setattr(Encoder, "encode", _fake_encode)
    data = ask_text(DOCUMENT, AskOptions(document=True)).to_json()
    assert data["aura"]["evaluator"]["name"] == "aura"
    assert data["aura"]["evaluator"]["args"]["threshold"] == 0.5
