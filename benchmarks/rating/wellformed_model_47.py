"""Could a model learned from the raters' ``well_formed`` labels agree with them better
than the shipped well-formedness check? (issue 47, item 4; the answer was no.)

    python benchmarks/rating/wellformed_model_47.py             # words and shape features
    python benchmarks/rating/wellformed_model_47.py --encoder   # and the embedded encoder

On the 1,725 rated development candidates (``r47``), each of the four batches is held out
in turn. A logistic regression learns from the other three: word 1–2-grams (tf-idf), the
check's flaw codes and the shapes the raters named (length, commas, digits, brackets, an
odd quote, words no dictionary knows, a pronoun or demonstrative, capitals mid-question);
``--encoder`` adds the embedded encoder's vectors. Its threshold makes it pass as many
training candidates as the raters passed there (no held-out label chooses it). Agreement
is Cohen's κ against "well formed to both raters", beside the shipped check's on the
same candidates; then the shipped check's on the held-out blind ratings.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
_PRONOUN = re.compile(r"\b(?:this|these|those|it|they|them|he|she|his|her|their)\b", re.I)


def _shape(question: str, flaws: list, known: frozenset) -> dict[str, float]:
    words = re.findall(r"[A-Za-z']+", question)
    features = {f"flaw_{f.code}": 1.0 for f in flaws}
    features |= {
        "n_flaws": float(len(flaws)),
        "words": len(words) / 20,
        "commas": float(question.count(",")),
        "digit": float(bool(re.search(r"\d", question))),
        "bracket": float("(" in question or "[" in question),
        "odd_quote": float(question.count('"') % 2),
        "unknown": float(sum(w.islower() and w.lower() not in known for w in words)),
        "pronoun": float(bool(_PRONOUN.search(question))),
        "capitals": sum(w[0].isupper() for w in words[1:]) / 3,
    }
    return features


def _kappa_both(passes, people) -> float:
    from sklearn.metrics import cohen_kappa_score

    return float(cohen_kappa_score(list(passes), list(people)))


def learned(encoder: bool) -> None:
    """Each batch held out in turn: the learned model's κ and the shipped check's."""
    from make_candidates_47 import OUT, _labels, development_texts
    from scipy.sparse import csr_matrix, hstack
    from sklearn.feature_extraction import DictVectorizer
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    from maieutic.language.dictionary import known_words
    from maieutic.language.wellformed import check_question

    key = json.loads((OUT / "key.json").read_text())
    texts = development_texts()
    raters = {r: {} for r in "ab"}
    for folder in sorted(OUT.glob("batch_*")):
        for r in "ab":
            raters[r].update(_labels(folder / f"labels_{r}.jsonl"))
    ids = [q for q, e in key.items() if "claims-candidate" in e["sources"]
           and q in raters["a"] and q in raters["b"]]  # fmt: skip
    questions = [key[q]["question"] for q in ids]
    batch = np.array([key[q]["batch"] for q in ids])
    people = np.array([bool(raters["a"][q]["well_formed"] and raters["b"][q]["well_formed"])
                       for q in ids])  # fmt: skip
    flaws = [check_question(key[q]["question"], texts[key[q]["text_id"]]["text"]) for q in ids]
    known = known_words()
    shapes = [_shape(q, f, known) for q, f in zip(questions, flaws, strict=True)]
    shipped = np.array([not f for f in flaws])
    vectors = None
    if encoder:
        from maieutic.embed.encoder import shared_encoder

        vectors = np.asarray(shared_encoder().encode(questions))
    asked, shaped = np.array(questions, dtype=object), np.array(shapes, dtype=object)
    learned_k, shipped_k = [], []
    for held in range(4):
        test, train = batch == held, batch != held
        words = TfidfVectorizer(ngram_range=(1, 2), min_df=3, sublinear_tf=True)
        shape = DictVectorizer()
        parts = [
            (words.fit_transform(list(asked[train])), words.transform(list(asked[test]))),
            (shape.fit_transform(list(shaped[train])), shape.transform(list(shaped[test]))),
        ]
        if vectors is not None:
            parts.append((csr_matrix(vectors[train]), csr_matrix(vectors[test])))
        x_train = hstack([p[0] for p in parts]).tocsr()
        x_test = hstack([p[1] for p in parts]).tocsr()
        model = LogisticRegression(C=0.3, max_iter=3000, class_weight="balanced")
        model.fit(x_train, people[train])
        # pass as many training candidates as the raters passed there
        threshold = np.quantile(model.predict_proba(x_train)[:, 1], 1 - people[train].mean())
        passes = model.predict_proba(x_test)[:, 1] >= threshold
        learned_k.append(_kappa_both(passes, people[test]))
        shipped_k.append(_kappa_both(shipped[test], people[test]))
        print(f"batch {held} held out (n={int(test.sum())}): learned kappa "
              f"{learned_k[-1]:.2f} (passes {passes.mean():.2f}), shipped check "
              f"{shipped_k[-1]:.2f} (passes {shipped[test].mean():.2f}), raters pass "
              f"{people[test].mean():.2f}")  # fmt: skip
    print(f"mean over the four batches: learned {np.mean(learned_k):.2f}, "
          f"shipped {np.mean(shipped_k):.2f}")  # fmt: skip


def held_out() -> None:
    """The shipped check against the blind ratings of held-out texts."""
    from make_heldout_47 import held_out_texts as first_texts
    from make_heldout_47b import _labels
    from make_heldout_47c import held_out_texts

    from maieutic.language.wellformed import check_question

    texts = {**first_texts(), **held_out_texts()}
    for folder, pairs in (("r47h", ("ab",)), ("r47h2", ("ab",)), ("r47h3", ("ab", "cd"))):
        key = json.loads((HERE / folder / "key.json").read_text())["items"]
        for pair in pairs:
            files = [HERE / folder / f"labels_{r}.jsonl" for r in pair]
            if not all(f.exists() for f in files):
                continue
            a, b = (_labels(f) for f in files)
            ids = [q for q in key if q in a and q in b]
            people = [bool(a[q]["well_formed"] and b[q]["well_formed"]) for q in ids]
            shipped = [not check_question(key[q]["question"], texts[key[q]["text_id"]]["text"])
                       for q in ids]  # fmt: skip
            print(f"{folder} raters {pair} (n={len(ids)}): shipped check kappa "
                  f"{_kappa_both(shipped, people):.2f} (passes {np.mean(shipped):.2f}, "
                  f"raters pass {np.mean(people):.2f})")  # fmt: skip


def main() -> None:
    """The learned model per held-out batch, then the shipped check on held-out ratings."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--encoder", action="store_true", help="add the encoder's vectors")
    args = parser.parse_args()
    learned(args.encoder)
    held_out()


if __name__ == "__main__":
    main()
