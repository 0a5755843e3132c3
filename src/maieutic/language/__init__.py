"""Reading English text for question writers: the syntactic pipeline (spaCy), the
claims a text makes restated in full, and the check that a question is well formed.
Task-independent: the critical-question and Socratic-question generators share it."""
