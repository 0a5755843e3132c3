"""How the tasks' commands join the command tree, on demand.

A task adds its commands through one hook, ``Task.commands(groups)``: it receives a
``CommandGroups`` and adds click commands to the shared verb groups (``generate``,
``evaluate``, ``meta-eval``, ``train``) and, for tools of its own, one group at the top
level named after the task (``maieutic TASK TOOL``). Commands under a verb are named
after the task, or the task and a suffix (``meta-eval TASK-compare``).

Importing a task loads its models' libraries, so the hook runs only when the command
line needs that task: ``maieutic evaluate NAME`` mounts the task ``NAME`` alone, a
listing (``maieutic evaluate --help``) mounts every task, and ``maieutic --help``
mounts none (task names come from ``maieutic.registry.task_modules``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import click

VERBS = ("generate", "evaluate", "meta_eval", "train")
"""The verb groups a task's commands go into (attribute names of ``CommandGroups``)."""


@dataclass
class CommandGroups:
    """Where a task's commands go; ``Task.commands`` receives one."""

    root: click.Group
    """``maieutic`` itself: a task adds at most one group here, named after the task."""
    generate: click.Group
    evaluate: click.Group
    meta_eval: click.Group
    train: click.Group
    mounted: dict[str, list[str]] = field(default_factory=dict)
    """Task name → the commands its hook added (``"evaluate TASK"``…)."""

    def _verbs(self) -> list[click.Group]:
        return [getattr(self, verb) for verb in VERBS]

    def mount(self, name: str) -> bool:
        """Run task ``name``'s hook once; False when no task has that name."""
        from maieutic.registry import task_modules
        from maieutic.tasks import get_task

        if name in self.mounted:
            return True
        if name not in task_modules():
            return False
        self.mounted[name] = []  # first: a hook that looks a command up does not recurse
        groups = [self.root, *self._verbs()]
        before = [set(group.commands) for group in groups]
        hook = get_task(name).commands
        if hook is not None:
            hook(self)
        for group, known in zip(groups, before, strict=True):
            prefix = "" if group is self.root else f"{group.name} "
            self.mounted[name] += [f"{prefix}{c}" for c in sorted(set(group.commands) - known)]
        self._describe(name)
        return True

    def mount_all(self) -> None:
        """Every task's commands (for listings and help)."""
        from maieutic.registry import task_modules

        for name in task_modules():
            self.mount(name)

    def _describe(self, name: str) -> None:
        """The task's top-level group (an empty one when it has no tools of its own)
        lists the task's commands under the verbs."""
        elsewhere = ", ".join(f"maieutic {c}" for c in self.mounted[name] if " " in c)
        group = self.root.commands.get(name)
        if group is None:
            group = click.Group(name, help=f"The {name} task's commands (no tools of its own).")
            self.root.add_command(group)
            group.epilog = f"Its commands: {elsewhere or 'none'}."
        elif elsewhere and not group.epilog:
            group.epilog = f"The task's other commands: {elsewhere}."


class TaskGroup(click.Group):
    """A click group that mounts the tasks' commands only when one is asked for."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tree: CommandGroups | None = None

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None or self.tree is None:
            return found
        # the task named like the command, or like its first word (TASK-compare → TASK)
        for name in dict.fromkeys([cmd_name, cmd_name.split("-", 1)[0]]):
            self.tree.mount(name)
            if (found := super().get_command(ctx, cmd_name)) is not None:
                return found
        self.tree.mount_all()  # a command named otherwise
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        if self.tree is not None:
            self.tree.mount_all()
        return super().list_commands(ctx)


class RootGroup(TaskGroup):
    """``maieutic``: lists the tasks by name without importing them."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from maieutic.registry import task_modules

        return sorted({*self.commands, *task_modules()})

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max((len(n) for n in names), default=0)
        rows = []
        for name in names:
            command = self.commands.get(name)  # never mounts: help stays fast
            if command is None:
                rows.append((name, f"The {name} task: its own tools, and where its commands are."))
            elif not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
