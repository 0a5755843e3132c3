"""How the tasks' commands join the command tree, on demand.

A task adds its commands through one hook, registered with
``maieutic.cli.COMMAND_HOOKS.add(name, hook)`` when its package is imported and called
as ``hook(groups)``: click commands in
the shared verb groups (``generate``, ``evaluate``, ``meta-eval``, ``train``), named after
the task or the task and a suffix (``meta-eval TASK-compare``), and, for tools of its
own, one top-level group named after the task (``maieutic TASK TOOL``).

Importing a task loads its models' libraries, so the hook runs only when the command
line needs that task: ``maieutic evaluate NAME`` mounts the task ``NAME`` alone, a
listing (``maieutic evaluate --help``) mounts every task, and ``maieutic --help`` mounts
none (names and summaries: ``maieutic.registry.task_modules`` and ``task_summary``).

A task whose hook adds no ``evaluate TASK`` (or ``generate TASK``), or that has no
hook at all, still gets one when it registers evaluators (generators): the core's generic
command over the library run layer (``maieutic.evaluate``, ``maieutic.generate``),
offering the registered names as ``--evaluator`` (``--generator``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import click

from maieutic.cli.outputs import guarded
from maieutic.registry import HookTable

VERBS = ("generate", "evaluate", "meta_eval", "train")
"""The verb groups a task's commands go into (attribute names of ``CommandGroups``)."""


class AddsCommands(Protocol):
    """Adds a task's commands to the command tree."""

    def __call__(self, groups: CommandGroups, /) -> None: ...


COMMAND_HOOKS: HookTable[AddsCommands] = HookTable("command line")
"""Each task's hook adding its commands, by task name."""


@dataclass(kw_only=True)
class CommandGroups:
    """Where a task's commands go; a task's command hook receives one."""

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

        if name in self.mounted:
            return True
        if name not in task_modules():
            return False
        self.mounted[name] = []  # first: a hook that looks a command up does not recurse
        groups = [self.root, *self._verbs()]
        before = [set(group.commands) for group in groups]
        hook = COMMAND_HOOKS.get(name)
        if hook is not None:
            hook(self)
        self._add_generic(name)
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

    def _add_generic(self, name: str) -> None:
        """The generic ``evaluate NAME`` and ``generate NAME`` where the hook added
        none and the task registers components of that kind."""
        from maieutic.registry import names

        if name not in self.evaluate.commands and names("evaluator", task=name):
            self.evaluate.add_command(generic_evaluate(name))
        if name not in self.generate.commands and names("generator", task=name):
            self.generate.add_command(generic_generate(name))

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
        found = self._find(ctx, cmd_name)
        return None if found is None else guarded(found)

    def _find(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
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
        from maieutic.registry import task_summary

        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max((len(n) for n in names), default=0)
        rows = []
        for name in names:
            command = self.commands.get(name)  # never mounts: help stays fast
            summary = task_summary(name)  # the same line, mounted or not
            if summary or command is None:
                rows.append((name, summary or f"The {name} task (maieutic {name} --help)."))
            elif not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


# -- the generic commands: the run layer on the command line --------------------------------


def _component_option(kind: str, *, task: str) -> Callable[[Any], Any]:
    """``--evaluator`` / ``--generator``: one of the task's registered names (the only
    one by default; required when there are several), or ``scorer:DIR`` where the task
    registers a learned scorer."""
    from maieutic.cli.option_types import RegisteredOrScorer
    from maieutic.registry import names

    known = names(kind, task=task)
    if kind == "evaluator" and "scorer" in known:
        choice: click.ParamType = RegisteredOrScorer(kind, task=task)
        known = [n for n in known if n != "scorer"]
    else:
        choice = click.Choice(known)
    only = known[0] if len(known) == 1 else None
    return click.option(
        f"--{kind}",
        type=choice,
        default=only,
        required=only is None,
        show_default=only is not None,
        help=f"The registered {kind} to use.",
    )


def _strict_option() -> Callable[[Any], Any]:
    """``--strict``, as every task means it."""
    return click.option(
        "--strict", is_flag=True, help="Refuse (exit 2) flagged input instead of using it."
    )


def _threshold_option(task: str) -> list[Callable[[Any], Any]]:
    """``--threshold``, for a task with an evaluator that compares with one."""
    from maieutic.cli.option_types import number
    from maieutic.registry import entry, names

    if not any(
        entry("evaluator", task=task, name=n).threshold for n in names("evaluator", task=task)
    ):
        return []
    return [
        click.option(
            "--threshold",
            type=number(),
            default=None,
            help="The evaluator's threshold, on its own scale (default: its own).",
        )
    ]


def generic_evaluate(task: str) -> click.Command:
    """``maieutic evaluate TASK --data REF [--evaluator NAME] [--out FILE] [--strict]
    SUBMISSION...`` for a task with no evaluate command of its own."""
    from maieutic.cli.options import out_option, stack

    options = stack(
        [
            click.option(
                "--data",
                "data_path",
                type=click.Path(dir_okay=False),
                help="The task's reference data (labelled dataset) to score against.",
            ),
            click.argument("submissions", nargs=-1, type=click.Path()),
            _component_option("evaluator", task=task),
            *_threshold_option(task),
            out_option,
            click.option(
                "--skip-unknown",
                is_flag=True,
                help="Warn about and skip ids absent from --data (default: error).",
            ),
            _strict_option(),
        ]
    )
    help_text = (
        f"Score SUBMISSIONS of the {task} task against --data with a registered evaluator "
        "(one submission prints a summary, several a leaderboard). Made by maieutic from "
        "the task's registry entries (maieutic.evaluate)."
    )

    @click.pass_context
    def command(ctx: click.Context, **values: Any) -> None:
        _run_evaluate(ctx, task, **values)

    return click.command(task, help=help_text)(options(command))


def _run_evaluate(
    ctx: click.Context,
    task: str,
    data_path: str | None,
    *,
    submissions: tuple[str, ...],
    evaluator: str,
    out_path: str | None,
    **options: Any,
) -> None:
    import maieutic.run
    from maieutic.cli.printing import console_for, echo_warnings, fail_on_call_failures
    from maieutic.core import get_task
    from maieutic.report.tables import print_results

    done = maieutic.run.evaluate(
        task,
        data_path,
        submissions=list(submissions),
        evaluator=evaluator,
        strict=options.pop("strict"),
        skip_unknown=options.pop("skip_unknown"),
        out=out_path,
        on_result=lambda result: echo_warnings(result.submission, result.warnings),
        provenance=dict(ctx.params),
        **options,
    )
    echo_warnings(task, done.warnings)
    print_results(get_task(task), done.results, console_for(out_path), out=out_path)
    fail_on_call_failures(done.failures, "model")


def generic_generate(task: str) -> click.Command:
    """``maieutic generate TASK --data INPUT [--generator NAME] --out FILE`` for a task
    with no generate command of its own."""
    from maieutic.cli.options import stack

    options = stack(
        [
            click.option(
                "--data",
                "data_path",
                required=True,
                type=click.Path(dir_okay=False),
                help="The task's input to generate for.",
            ),
            _component_option("generator", task=task),
            click.option(
                "--out",
                "out_path",
                required=True,
                type=click.Path(dir_okay=False),
                help="File to write, with OUT.meta.json (how it was made) beside it; "
                "with --runs K, OUT-runK for each run.",
            ),
            click.option(
                "--runs",
                type=click.IntRange(1),
                default=1,
                show_default=True,
                help="Independent runs (each with its own seed).",
            ),
            _strict_option(),
        ]
    )
    help_text = (
        f"Generate the {task} task's output for --data with a registered generator and "
        "write it to --out (made by maieutic from the task's registry entries: "
        "maieutic.generate)."
    )

    @click.pass_context
    def command(ctx: click.Context, **values: Any) -> None:
        _run_generate(ctx, task, **values)

    return click.command(task, help=help_text)(options(command))


def _run_generate(
    ctx: click.Context,
    task: str,
    *,
    data_path: str,
    generator: str,
    out_path: str,
    runs: int,
    strict: bool,
) -> None:
    import maieutic.run
    from maieutic.cli.printing import echo_warnings
    from maieutic.progress import progress

    done = maieutic.run.generate(
        task,
        data_path,
        generator=generator,
        runs=runs,
        strict=strict,
        out=out_path,
        progress=progress,
        provenance=dict(ctx.params),
    )
    echo_warnings(task, done.warnings)
    for path in done.written:
        click.echo(f"wrote {path}", err=True)
    if done.uses_llm:
        click.echo(done.calls_now.summary(), err=True)
    if done.failed:
        click.echo(f"{len(done.failed)} item(s) got nothing; see {out_path}", err=True)
        raise SystemExit(1)
