"""The words the parser's dictionary knows: how a typo and a name are told from a word."""

from __future__ import annotations

from functools import lru_cache

from maieutic.language import syntax


@lru_cache(maxsize=1)
def known_words() -> frozenset[str]:
    """Lemmas the pipeline's lemmatizer knows (WordNet's index) and its exceptions."""
    lookups = syntax.nlp().get_pipe("lemmatizer").lookups
    words: set[str] = set()
    if "lemma_index" in lookups.tables:
        for values in lookups.get_table("lemma_index").values():
            words.update(values)
    if "lemma_exc" in lookups.tables:
        for table in lookups.get_table("lemma_exc").values():
            words.update(table)
    return frozenset(words)
