"""The real embedded model: encode counts, the disk cache, and STS matching."""

from __future__ import annotations

import numpy as np
import pytest

from maieutic.embed.encoder import Encoder
from maieutic.embed.store import EmbeddingStore, embed_texts
from maieutic.samples import sample_path
from maieutic.tasks.cqs.data import load_cq_dataset, load_submission
from maieutic.tasks.cqs.evaluate import CQEvaluator
from maieutic.tasks.cqs.matchers import EmbeddingMatcher


def evaluate_submissions(dataset, submissions, matcher, threshold=0.6):
    return CQEvaluator(matcher, threshold).evaluate(dataset, submissions)


pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def encoder():
    return Encoder()


def test_embedded_model_gives_unit_vectors_and_sensible_similarity(encoder):
    vecs = encoder.encode(
        [
            "Is the claim supported by evidence?",
            "What evidence supports the claim?",
            "Bananas are yellow.",
        ]
    )
    assert vecs.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    assert vecs[0] @ vecs[1] > 0.7 > vecs[0] @ vecs[2]


def test_each_distinct_text_is_encoded_once_and_cached_on_disk(tmp_path):
    store = EmbeddingStore(tmp_path / "emb.sqlite")
    first = Encoder()
    texts = ["one question?", "two question?", "one question?", "three?"]
    vectors = embed_texts(texts, first, store)
    assert first.n_encoded == 3
    assert set(vectors) == {"one question?", "two question?", "three?"}
    second = Encoder()
    again = embed_texts([*texts, "four?"], second, store)
    assert second.n_encoded == 1  # only the new text
    np.testing.assert_array_equal(again["two question?"], vectors["two question?"])


def test_second_run_over_same_submission_never_loads_the_model():
    dataset = load_cq_dataset(sample_path("cqs/sample_dataset.json"))
    submission = load_submission(sample_path("cqs/sample_submission.json"))
    answered = [k for k, e in submission.entries.items() if e.cqs]  # not "Missing CQs"
    distinct = {q.cq for k in answered for q in dataset.interventions[k].cqs}
    distinct |= {q.cq for e in submission.entries.values() for q in e.cqs or ()}
    cold = EmbeddingMatcher(Encoder(), EmbeddingStore())
    [first] = evaluate_submissions(dataset, [submission], cold)
    # refs of the answered interventions and the distinct questions, each once
    assert cold.encoder.n_encoded == len(distinct)
    warm = EmbeddingMatcher(Encoder(), EmbeddingStore())
    [second] = evaluate_submissions(dataset, [submission], warm)
    assert warm.encoder.n_encoded == 0
    assert warm.encoder._model is None
    assert second.to_json()["items"] == first.to_json()["items"]


def test_sample_submission_scores_as_expected_by_hand():
    dataset = load_cq_dataset(sample_path("cqs/sample_dataset.json"))
    submission = load_submission(sample_path("cqs/sample_submission.json"))
    [result] = evaluate_submissions(dataset, [submission], EmbeddingMatcher(Encoder()))
    by_id = {r.intervention_id: r for r in result.items}
    # paraphrases of Useful references inherit Useful
    assert by_id["TOWN_BIKES_1"].questions[0].label == "Useful"
    assert by_id["TOWN_BIKES_1"].questions[0].best_reference_id == "TOWN_BIKES_1_ref_0"
    assert by_id["LIBRARY_FEES_5"].labels == ["missing_cqs"] * 3
    assert '"MARKET_HOURS_4".cqs: 1 duplicate question' in result.warnings
    assert 0 < result.score < 1
    assert result.signature.model == "all-MiniLM-L6-v2"


def test_onnx_backend_matches_torch_on_mixed_lengths():
    pytest.importorskip("onnxruntime")
    dataset = load_cq_dataset(sample_path("cqs/sample_dataset.json"))
    texts = [q.cq for i in dataset.interventions.values() for q in i.cqs]
    texts += [i.intervention for i in dataset.interventions.values()]  # long texts too
    torch_vecs = Encoder().encode(texts)
    onnx = Encoder(backend="onnx", batch_size=8)
    onnx_vecs = onnx.encode(texts)
    assert onnx.identity != Encoder().identity  # cached separately
    cosines = (torch_vecs * onnx_vecs).sum(axis=1)
    assert cosines.min() > 0.9999


def test_the_fast_tokenizer_gives_transformers_ids_padded_and_cut():
    from transformers import AutoTokenizer

    from maieutic.embed.encoder import embedded_model_path
    from maieutic.embed.onnx import FastTokenizer

    folder = embedded_model_path()
    texts = ["Is it true?", "Why would a longer question, with a clause, hold up? " * 30, ""]
    ours, theirs = FastTokenizer(folder / "tokenizer.json"), AutoTokenizer.from_pretrained(folder)
    for options in ({"padding": True, "truncation": True, "max_length": 16}, {"padding": True}):
        a = ours(texts, return_tensors="np", **options)
        b = theirs(texts, return_tensors="np", **options)
        for name in ("input_ids", "attention_mask", "token_type_ids"):
            assert a[name].tolist() == b[name].tolist(), (name, options)
    plain = ours(texts, add_special_tokens=True, truncation=False)["input_ids"]
    assert plain == theirs(texts, add_special_tokens=True, truncation=False)["input_ids"]


def test_texts_are_encoded_longest_first_and_come_back_in_their_order():
    encoder = Encoder(batch_size=2)
    texts = ["a b", "a much longer question about the evidence for the claim?", "why?", "a b c d"]
    order = encoder.length_order(texts)
    assert order.tolist() == [1, 3, 0, 2]  # by word pieces, ties in their order
    vectors = encoder.encode(texts)
    alone = np.stack([Encoder().encode([t])[0] for t in texts])
    assert np.abs(vectors - alone).max() < 1e-5  # each text's own vector, in place
