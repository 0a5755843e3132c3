"""Learned reference-free scorers: a model trained on human labels that gives each
(context, question) pair a probability — of being a Useful critical question, or of
being answerable from a passage — saved as a directory with a manifest, and used to
evaluate without references and to select among over-generated candidates."""
