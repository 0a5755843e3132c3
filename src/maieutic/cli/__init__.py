"""The ``maieutic`` command line: thin wrappers over the library.

The core names no task: each task adds its commands through a hook it registers in
``COMMAND_HOOKS``, which receives the ``CommandGroups`` to add them to (see ``_tree``)."""

from maieutic.cli._tree import COMMAND_HOOKS, AddsCommands, CommandGroups

__all__ = ["COMMAND_HOOKS", "AddsCommands", "CommandGroups"]
