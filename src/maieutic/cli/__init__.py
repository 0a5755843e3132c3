"""The ``maieutic`` command line: thin wrappers over the library.

The core names no task: each task adds its commands through its ``Task.commands``
hook, which receives the ``CommandGroups`` to add them to (see ``_tree``)."""

from maieutic.cli._tree import CommandGroups

__all__ = ["CommandGroups"]
