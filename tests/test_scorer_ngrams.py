"""The n-gram block of the ``pair-v3`` feature set: its TF-IDF matches scikit-learn's
on the same settings, the combined model reproduces a logistic regression fitted
independently on the same matrix, each cross-validation fold learns its vocabulary
from its training side only, and a saved scorer restores the vocabulary (or is refused
without it)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from maieutic.errors import DataError
from maieutic.scorers import train as train_module
from maieutic.scorers.examples import Examples
from maieutic.scorers.features import QuestionNgrams
from maieutic.scorers.model import WEIGHTS, load_scorer
from maieutic.scorers.train import NGRAM_DENSE_WEIGHT, fit_with_ngrams, train

QUESTIONS = [
    "Is there evidence that the plan works?",
    "Is there evidence for the claim?",
    "What other factors could explain the rise?",
    "What other options were considered?",
    "Who says so?",
    "Is the source reliable?",
]


def test_ngram_block_is_sublinear_tfidf_of_terms_in_two_questions():
    ngrams = QuestionNgrams.fit(QUESTIONS)
    oracle = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True).fit(QUESTIONS)
    assert ngrams.terms == list(oracle.get_feature_names_out())
    assert "is there" in ngrams.terms and "what other" in ngrams.terms
    assert "plan" not in ngrams.terms  # in one question only
    query = ["Is there evidence that other factors matter?", "Unrelated words entirely"]
    np.testing.assert_allclose(ngrams.transform(query).toarray(), oracle.transform(query).toarray())
    assert not ngrams.transform(query[1:]).toarray().any()  # no known term: a zero row


def _examples(seed=0, n_groups=10):
    """Useful questions say "is there evidence", the others "what colour"; the dense
    features are noise, so only the n-grams carry the label."""
    rng = np.random.default_rng(seed)
    ex = Examples(positive="Useful")
    for g in range(n_groups):
        for i in range(8):
            useful = i % 2 == 0
            ex.contexts.append(f"text {g}")
            ex.questions.append(
                f"Is there evidence for point {g} {i}?" if useful else f"What colour is {g} {i}?"
            )
            ex.schemes.append("")
            ex.groups.append(f"g{g}")
            ex.labels.append("Useful" if useful else "Invalid")
            ex.ordinal.append(2.0 if useful else 0.0)
            ex.systems.append("")
    return ex, rng.normal(size=(len(ex.questions), 5))


def test_combined_model_matches_an_independent_fit():
    ex, dense = _examples()
    model, ngrams = fit_with_ngrams(dense, ex.questions, labels=ex.labels, c=0.3, seed=0)
    # the same matrix built by hand: standardised dense block × 0.5/√5, then the n-grams
    k = NGRAM_DENSE_WEIGHT / np.sqrt(dense.shape[1])
    z = StandardScaler().fit_transform(dense) * k
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
    grams = vectorizer.fit_transform(ex.questions)
    oracle = LogisticRegression(C=0.3, max_iter=3000, random_state=0).fit(
        sparse.hstack([sparse.csr_matrix(z), grams]).tocsr(), ex.labels
    )
    expected = oracle.predict_proba(np.hstack([z, grams.toarray()]))
    full = np.hstack([dense, ngrams.transform(ex.questions).toarray()])
    np.testing.assert_allclose(model.probabilities(full), expected, rtol=1e-6, atol=1e-9)


def test_each_fold_learns_its_vocabulary_from_its_training_side(monkeypatch):
    ex, dense = _examples()
    seen: list[set[str]] = []
    real_fit = QuestionNgrams.fit.__func__

    def recording_fit(cls, questions):
        seen.append(set(questions))
        return real_fit(cls, questions)

    monkeypatch.setattr(QuestionNgrams, "fit", classmethod(recording_fit))
    cv = train_module.cross_validate(ex, dense, 0.3, seed=0, ngrams=True)
    assert len(seen) == 5
    for questions in seen:  # a fold's vocabulary never reads a test-side question
        groups = {g for q, g in zip(ex.questions, ex.groups, strict=True) if q in questions}
        assert len(groups) == 8  # four fifths of the ten texts
    assert cv["figures"]["auc"]["value"] > 0.95  # the n-grams carry the label


def test_saved_scorer_keeps_its_vocabulary(tmp_path):
    ex, dense = _examples()
    trained = train(
        ex, dense, task="cqs", data_bytes=b"d", data_name="d.json", encoder_identity="enc",
        features_version="pair-v3",
    )  # fmt: skip
    assert trained.scorer.manifest["model"]["C"] == 0.3  # the n-gram feature set's default
    assert trained.scorer.manifest["model"]["ngrams"] == len(trained.scorer.ngrams)
    trained.scorer.save(tmp_path / "s")
    loaded = load_scorer(tmp_path / "s")
    assert loaded.ngrams.terms == trained.scorer.ngrams.terms
    full = np.hstack([dense, loaded.ngrams.transform(ex.questions).toarray()])
    np.testing.assert_allclose(loaded.probability(full), trained.scorer.probability(full))
    assert loaded.identity() == trained.scorer.identity()
    with np.load(tmp_path / "s" / WEIGHTS) as arrays:
        kept = {k: arrays[k] for k in arrays.files if not k.startswith("ngram_")}
    np.savez(tmp_path / "s" / WEIGHTS, **kept)
    with pytest.raises(DataError, match=r"needs the n-gram vocabulary.*train the scorer again"):
        load_scorer(tmp_path / "s")


class _Encoder:
    """Deterministic unit vectors by text, so the real feature path runs without a model."""

    identity = "fake"
    model_name = "fake"

    def encode(self, texts):
        import hashlib

        seeds = [int(hashlib.sha256(t.encode()).hexdigest()[:8], 16) for t in texts]
        vectors = [np.random.default_rng(s).normal(size=8) for s in seeds]
        return np.stack([v / np.linalg.norm(v) for v in vectors]).astype(np.float32)


def test_scoring_builds_the_features_it_was_trained_on(tmp_path):
    """Train → save → load → ``score`` through ``pair_features``, against a logistic
    regression fitted independently on a matrix built by hand (dense block first)."""
    from maieutic.scorers.features import pair_features

    ex, _ = _examples()
    encoder = _Encoder()
    dense = pair_features(encoder, ex.contexts, questions=ex.questions, schemes=ex.schemes)
    trained = train(
        ex, dense, task="cqs", data_bytes=b"d", data_name="d.json", encoder_identity="fake",
        features_version="pair-v3",
    )  # fmt: skip
    trained.scorer.save(tmp_path / "s")
    loaded = load_scorer(tmp_path / "s")
    k = NGRAM_DENSE_WEIGHT / np.sqrt(dense.shape[1])
    scaler = StandardScaler().fit(dense)
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
    grams = vectorizer.fit_transform(ex.questions)
    oracle = LogisticRegression(C=0.3, max_iter=3000, random_state=0).fit(
        sparse.hstack([sparse.csr_matrix(scaler.transform(dense) * k), grams]).tocsr(), ex.labels
    )
    texts = ["Is there evidence for point 3 9?", "What colour is the sky?"]
    contexts = ["text 3", "text 4"]
    x = np.hstack([scaler.transform(pair_features(encoder, contexts, questions=texts)) * k,
                   vectorizer.transform(texts).toarray()])  # fmt: skip
    expected = oracle.predict_proba(x)[:, list(oracle.classes_).index("Useful")]
    np.testing.assert_allclose(loaded.score(encoder, contexts, texts), expected, rtol=1e-6)
    assert expected[0] > 0.5 > expected[1]


def test_no_recurring_term_gives_an_empty_block_not_a_crash():
    ngrams = QuestionNgrams.fit(["alpha?", "beta gamma?"])
    assert ngrams.terms == [] and ngrams.transform(["alpha?"]).shape == (1, 0)
    ex, dense = _examples()
    ex.questions = [f"q{i}" for i in range(len(ex.questions))]  # no word repeats
    model, ngrams = fit_with_ngrams(dense, ex.questions, labels=ex.labels, c=0.3, seed=0)
    assert len(ngrams) == 0 and model.coef.shape[1] == dense.shape[1]


def test_a_class_in_too_few_texts_is_refused_with_the_reason():
    ex, dense = _examples()
    ex.labels = ["Useful" if g == "g0" and lab == "Useful" else "Invalid"
                 for g, lab in zip(ex.groups, ex.labels, strict=True)]  # fmt: skip
    with pytest.raises(DataError, match=r"no Useful pair to learn from: .* only 1 text"):
        train_module.cross_validate(ex, dense, 0.3, seed=0, ngrams=True)
