"""The task families. Each is a subpackage that registers, by name, its ``Task`` (the
contract of ``maieutic.core``), evaluators, judges, generators, selectors and
prompting strategies with ``maieutic.registry.register``, and hands the report, the
web app and the command line what it adds to each through their own hook tables;
see docs/adding-a-task.md and docs/architecture.md.

``Task``, ``Column`` and ``get_task`` are named here too, for task code written
against this package before the contract moved to ``maieutic.core``."""

from maieutic.core.task import Column, Task, get_task

__all__ = ["Column", "Task", "get_task"]
