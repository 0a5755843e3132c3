"""The jinja2 environment of the report (templates are package data) and the page's
building blocks: a ``Section`` is a titled list of ``Block``s, each a table, a chart,
a note or pre-rendered markup."""

from __future__ import annotations

import sys
from dataclasses import KW_ONLY, dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from maieutic.report.html.tables import Table


@dataclass
class Block:
    """One piece of a section: a heading with a note, a chart, a table and/or markup."""

    title: str = ""
    note: str = ""
    chart: Markup | None = None
    _: KW_ONLY
    table: Table | None = None
    html: Markup | None = None


@dataclass(kw_only=True)
class Section:
    """A top-level part of the page (it gets an entry in the contents)."""

    anchor: str
    title: str
    blocks: list[Block] = field(default_factory=list)
    lead: str = ""
    """A line under the title (e.g. which files the section draws on)."""


def _task_loaders() -> list[jinja2.BaseLoader]:
    """Each task's own templates (the ``templates/`` folder of its package)."""
    from maieutic.registry import task_package, tasks

    loaders: list[jinja2.BaseLoader] = []
    for name in tasks():
        package = task_package(name)
        # a task registered by a plain module (not a package folder) has no templates
        if not hasattr(sys.modules.get(package), "__path__"):
            continue
        if resources.files(package).joinpath("templates").is_dir():
            loaders.append(jinja2.PackageLoader(package, "templates"))
    return loaders


@cache
def environment() -> jinja2.Environment:
    """The template environment: autoescaping on, undefined names are errors."""
    return jinja2.Environment(
        loader=jinja2.ChoiceLoader(
            # the report's own templates beside this module (read as files: naming the
            # package would import it, and with it the page that renders through here)
            [jinja2.FileSystemLoader(Path(__file__).with_name("templates")), *_task_loaders()]
        ),
        # every value from an input file (questions, arguments, file names) is escaped
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(template: str, **context: Any) -> Markup:
    """A template rendered to markup (safe to embed in another template)."""
    return Markup(environment().get_template(template).render(**context))
