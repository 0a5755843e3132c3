"""The ``maieutic`` command line: thin wrappers over the library.

The core names no task: each task adds its commands through a hook it registers in
``COMMAND_HOOKS``, which receives the ``CommandGroups`` to add them to (see ``_tree``).

What a task's commands are built on is public, one module a job (a task imports
these, never a ``_`` module):

- ``maieutic.cli.options``: the shared click options (``--llm`` and its kin,
  ``--embedding-model`` and its kin, ``--out``, ``--plot``, ``--strict``, ``--engine``…),
  ``stack`` to apply a list of them, and ``deprecated_alias`` for a renamed option;
- ``maieutic.cli.option_types``: the types of their values (``number()`` for every float
  option, ``EvaluatorName`` / ``RegisteredOrScorer`` for a registered name or
  ``scorer:DIR``);
- ``maieutic.cli.option_meanings``: the one meaning of each option name, which a test
  holds every command to;
- ``maieutic.cli.components``: a registered component's arguments taken from a
  command's options, and the component built from them;
- ``maieutic.cli.outputs``: the guard that keeps a command from writing over its inputs;
- ``maieutic.cli.printing``: warnings, the console tables go to, the exit for failed
  model calls;
- ``maieutic.cli.commands``: the examples at the end of a command's help, and a moved
  command's old name.
"""

from maieutic.cli._tree import (
    COMMAND_HOOKS,
    AddsCommands,
    CommandGroups,
    RootGroup,
    TaskGroup,
)

__all__ = ["COMMAND_HOOKS", "AddsCommands", "CommandGroups", "RootGroup", "TaskGroup"]
