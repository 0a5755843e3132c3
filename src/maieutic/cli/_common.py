"""Old home of a few names, kept only for the task files that still import them from
here (tests/test_cli_tree.py lists them in ``PENDING``); delete it once they import
the public names."""

from maieutic.cli.components import component_options
from maieutic.cli.printing import console_for, echo_warnings

__all__ = ["component_options", "console_for", "echo_warnings"]
