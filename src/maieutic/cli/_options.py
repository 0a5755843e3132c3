"""Old home of a few options, kept only for the task files that still import them from
here (tests/test_cli_tree.py lists them in ``PENDING``); delete it once they import
them from ``maieutic.cli.options``."""

from maieutic.cli.options import (
    engine_arguments,
    engine_options,
    llm_options,
    sampling_options,
    stack,
)

__all__ = ["engine_arguments", "engine_options", "llm_options", "sampling_options", "stack"]
