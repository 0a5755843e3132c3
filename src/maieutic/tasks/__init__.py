"""The task families. Each is a subpackage that registers, by name, its ``Task`` (the
contract of ``maieutic.core``), evaluators, judges, generators, selectors and
prompting strategies with ``maieutic.registry.register``, and hands the report, the
web app and the command line what it adds to each through their own hook tables;
see docs/adding-a-task.md and docs/architecture.md.

This package holds nothing of its own: ``Task``, ``Column`` and ``get_task`` are
``maieutic.core.task``'s (re-exporting them here made registry → tasks → core →
registry a circle of imports)."""
