"""lm-evaluation-harness tasks scored by maieutic (``pip install 'maieutic[lm-eval]'``).

The task files live in this package's ``tasks`` folder, given to lm-eval as an include
path::

    lm_eval --include_path "$(python -m maieutic.integrations.lm_eval path)" \\
        --tasks maieutic_cqs --model local-chat-completions --apply_chat_template \\
        --model_args base_url=http://127.0.0.1:8080/v1/chat/completions,model=smollm2 \\
        --metadata '{"data": "validation.json"}' --log_samples --output_path runs/

The YAML names functions of ``maieutic.integrations.lm_eval.glue`` (through the
``tasks/utils.py`` beside it): the dataset is read by maieutic's reader, the prompt is
``maieutic generate cqs --generator llm``'s, and each reply is scored by maieutic's
evaluator, so the aggregate equals ``maieutic evaluate cqs`` on the same questions.
"""

from __future__ import annotations

from pathlib import Path

TASKS = Path(__file__).resolve().parent / "tasks"
"""The include path: lm-eval reads every task YAML below it."""


def include_path() -> Path:
    """The folder to pass to ``lm_eval --include_path``."""
    return TASKS
