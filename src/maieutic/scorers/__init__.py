"""Learned reference-free scorers: a model trained on human labels that gives each
(context, question) pair the probability of a positive class (a question people found
useful, one answerable from its passage…), saved as a directory with a manifest, and
used to evaluate without references and to select among over-generated candidates.

This package is the machinery (features, model, grouped cross-validation, training);
what a task's scorers learn from is registered by the task (``sources``)."""
