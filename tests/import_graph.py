"""The import graph of ``src/maieutic``, read from the source (nothing is imported):
every ``import`` and ``from … import`` wherever it stands (module level, inside a
function, under ``TYPE_CHECKING``), every ``import_module("…")`` with a literal name,
and every string literal that is exactly a module's name (a module named for a lazy
import or a registry). An edge ``a → b`` means that module ``a`` names module ``b``.

Used by ``test_layers.py``; ``python tests/import_graph.py`` prints the circles and
the upward edges, for working on them.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
MODULE_TEXT = re.compile(r"^(maieutic(?:\.\w+)+)(?::\w+)?$")
"""A module's dotted name as text, alone or as an entry point (the bare word
"maieutic" is the program's name in messages, not an import)."""
LAYER_LINE = re.compile(r"^(\d+)\.\s+\*\*([\w -]+)\*\*:\s*(.+)$")


def modules() -> dict[str, Path]:
    """Every module of the package, dotted name → file (a package is its ``__init__``)."""
    found = {}
    for path in sorted((SRC / "maieutic").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _called(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _named(module: str, path: Path, known: dict[str, Path]) -> Iterator[tuple[str, int]]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    loggers = {
        id(arg)
        for call in ast.walk(tree)
        if isinstance(call, ast.Call) and _called(call) == "getLogger"
        for arg in call.args
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield (full if full in known else base), node.lineno
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in loggers:
                continue  # a logger's name ("maieutic.web") is not an import
            # a module named as text: import_module("…"), a lazy import's table, an
            # entry point "module:attribute"
            match = MODULE_TEXT.match(node.value)
            if match and match.group(1) in known:
                yield match.group(1), node.lineno


REGISTRATION = {
    ("maieutic.registry", "maieutic.tasks"): "the registry finds the built-in tasks as "
    "the subpackages of this folder (installed ones through entry points) and imports "
    "each by name when it is first asked for",
    ("maieutic.records.base", "maieutic.ask.record"): "a results reader finds the "
    "record types of every file format by importing the modules that declare them: each "
    "task's ``records`` module, and the applications' records",
    ("maieutic.records.base", "maieutic.evaluate.results_record"): "the same discovery "
    "finds the results file's record, declared beside the code that writes it",
}
"""Upward edges that are plug-in discovery, not a dependency: a lower layer loads by
name what registers itself into it. Nothing else may point up."""


@dataclass(frozen=True)
class Edge:
    """Module ``source`` names module ``target`` at ``line``."""

    source: str
    target: str
    line: int


def edges() -> list[Edge]:
    """Every edge between two modules of the package (self-references left out)."""
    known = modules()
    out: dict[tuple[str, str], Edge] = {}
    for module, path in known.items():
        for name, line in _named(module, path, known):
            if not name.startswith("maieutic"):
                continue
            target = _resolve(name, known)
            if target and target != module and (module, target) not in out:
                out[(module, target)] = Edge(module, target, line)
    return list(out.values())


def circles(graph: list[Edge]) -> list[list[str]]:
    """The strongly connected groups of more than one module, largest first (Tarjan)."""
    nexts: dict[str, list[str]] = {}
    for edge in graph:
        nexts.setdefault(edge.source, []).append(edge.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in nexts.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted({e.source for e in graph} | {e.target for e in graph}):
        if node not in index:
            visit(node)
    return sorted(found, key=len, reverse=True)


@dataclass(frozen=True)
class Layer:
    """One layer of docs/architecture.md: its rank (1 is the bottom) and its modules."""

    rank: int
    name: str
    prefixes: tuple[str, ...]


def layers(text: str | None = None) -> list[Layer]:
    """The layers as docs/architecture.md lists them under "## The layers", one
    numbered line each:
    ``3. **core**: `maieutic.task`, `maieutic.evaluate` …``."""
    text = ARCHITECTURE.read_text(encoding="utf-8") if text is None else text
    text = text.split("\n## The layers", 1)[-1].split("\n## ", 1)[0]
    out = []
    for line in text.splitlines():
        match = LAYER_LINE.match(line.strip())
        if match:
            names = tuple(re.findall(r"`(maieutic[\w.]*)`", match.group(3)))
            out.append(Layer(int(match.group(1)), match.group(2).strip(), names))
    return out


def layer_of(module: str, table: list[Layer]) -> Layer | None:
    """The layer whose longest prefix names ``module`` (a subpackage may sit apart
    from its parent: ``maieutic.cli.main`` above ``maieutic.cli``)."""
    best: tuple[int, Layer] | None = None
    for layer in table:
        for prefix in layer.prefixes:
            # the package itself (``maieutic``, the library's front door) names only
            # its own __init__, never everything below it
            below = "." in prefix and module.startswith(prefix + ".")
            if (module == prefix or below) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), layer)
    return best[1] if best else None


def upward(graph: list[Edge], table: list[Layer]) -> list[Edge]:
    """Edges from a lower layer to a higher one."""
    out = []
    for edge in graph:
        low, high = layer_of(edge.source, table), layer_of(edge.target, table)
        if low and high and high.rank > low.rank:
            out.append(edge)
    return out


def main() -> None:
    """Print the circles and the upward edges."""
    table = layers()
    graph = [e for e in edges() if (e.source, e.target) not in REGISTRATION]
    print(f"{len(modules())} modules, {len(graph)} edges, {len(table)} layers")
    for group in circles(graph):
        print(f"circle of {len(group)}: {' '.join(group)}")
    for edge in sorted(upward(graph, table), key=lambda e: (e.source, e.target)):
        print(f"up: {edge.source}:{edge.line} -> {edge.target}")
    unplaced = [m for m in modules() if layer_of(m, table) is None]
    print(f"not in a layer: {unplaced}")


if __name__ == "__main__":
    main()
