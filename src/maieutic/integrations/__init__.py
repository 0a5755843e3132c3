"""maieutic inside the evaluation frameworks researchers already run: inspect_ai tasks
(``maieutic.integrations.inspect_tasks``), lm-evaluation-harness tasks
(``maieutic.integrations.lm_eval``), a Hugging Face ``datasets`` loader
(``maieutic.integrations.hf``), and the way back (``maieutic import``).

Every route goes through ``maieutic.integrations.bridge``: the prompts the task's llm
generator sends, the rule that keeps questions from a reply, and the task's evaluator.
So a framework's run gets the same questions and the same number as ``maieutic
generate`` and ``maieutic evaluate`` would for the same replies. No module here imports
a framework at import time (``maieutic --help`` loads none of them).
"""
