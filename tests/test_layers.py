"""The layers of docs/architecture.md hold: no module imports from a layer above its
own, and no modules import each other around a circle. Every import counts, wherever it
stands (function bodies and ``TYPE_CHECKING`` blocks included), and so does a module
named as text (``import_module("…")``, a lazy import's table): see ``import_graph``."""

from __future__ import annotations

import pytest

from tests import import_graph as graph

REGISTRATION = graph.REGISTRATION


@pytest.fixture(scope="module")
def edges() -> list[graph.Edge]:
    return graph.edges()


@pytest.fixture(scope="module")
def layers() -> list[graph.Layer]:
    return graph.layers()


def test_the_graph_and_the_layer_list_are_read(edges, layers):
    # a reader that found nothing would let every check below pass
    assert len(graph.modules()) > 300 and len(edges) > 1000
    assert [layer.rank for layer in layers] == list(range(1, len(layers) + 1))
    assert len(layers) >= 6


def test_every_module_sits_in_a_layer(layers):
    assert not [m for m in graph.modules() if graph.layer_of(m, layers) is None]


def test_no_module_imports_from_a_layer_above_its_own(edges, layers):
    up = [
        f"{e.source}:{e.line} -> {e.target}"
        for e in graph.upward(edges, layers)
        if (e.source, e.target) not in REGISTRATION
    ]
    assert not up, "\n".join(up)


def test_each_registration_edge_still_exists(edges):
    # a stale exception would hide a new edge of the same pair
    found = {(e.source, e.target) for e in edges}
    assert set(REGISTRATION) <= found


def test_no_circle_of_files(edges):
    kept = [e for e in edges if (e.source, e.target) not in REGISTRATION]
    assert not graph.circles(kept), graph.circles(kept)


def test_no_circle_of_the_core_packages(edges, layers):
    # within layer 3 the packages (core, records, evaluate, generate, scorers) import
    # each other one way only: a circle of packages made of files that do not circle
    # (records/results.py read evaluate.result, evaluate/results_file.py read it) is a
    # layer in all but name
    core = [m for m in graph.modules() if (graph.layer_of(m, layers) or layers[0]).rank == 3]
    packages = {".".join(m.split(".")[:2]) for m in core}
    assert {"maieutic.records", "maieutic.evaluate"} <= packages

    def package(module: str) -> str:
        return ".".join(module.split(".")[:2])

    between = {
        (package(e.source), package(e.target))
        for e in edges
        if (e.source, e.target) not in REGISTRATION
        and package(e.source) != package(e.target)
        and {package(e.source), package(e.target)} <= packages
    }
    edges_between = [graph.Edge(a, b, 0) for a, b in sorted(between)]
    assert not graph.circles(edges_between), graph.circles(edges_between)


def test_the_graph_sees_every_kind_of_import(tmp_path, monkeypatch):
    # the reader itself: a module-level, a function-level, a TYPE_CHECKING import and a
    # module named as text each make an edge; a logger's name does not
    package = tmp_path / "src" / "maieutic"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    for name in ("low", "mid", "high", "named", "lazy"):
        (package / f"{name}.py").write_text("")
    (package / "top.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "import logging\n"
        "from maieutic import low\n"
        "if TYPE_CHECKING:\n    from maieutic.mid import X\n"
        "def f():\n    from maieutic.high import Y\n"
        "LAZY = 'maieutic.lazy'\n"
        "log = logging.getLogger('maieutic.named')\n"
    )
    monkeypatch.setattr(graph, "SRC", tmp_path / "src")
    targets = {e.target for e in graph.edges() if e.source == "maieutic.top"}
    assert targets == {"maieutic.low", "maieutic.mid", "maieutic.high", "maieutic.lazy"}


def test_a_circle_is_found():
    edges = [graph.Edge("a", "b", 1), graph.Edge("b", "c", 1), graph.Edge("c", "a", 1)]
    assert graph.circles(edges) == [["a", "b", "c"]]
