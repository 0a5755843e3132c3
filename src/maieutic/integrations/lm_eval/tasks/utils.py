"""What the task YAMLs beside this file call (lm-eval imports it by its path)."""

from maieutic.integrations.lm_eval.glue import (  # noqa: F401
    dataset,
    overall,
    process_results,
)
