"""No import circles among parlour's modules.

The graph is read with ``ast`` from every module under src/parlour, including imports
inside functions and ``TYPE_CHECKING`` blocks (as tests/test_layers.py reads them): a
lazy import only hides a circle from the interpreter, not from the reader of the code.
``from package import name`` is an edge to the submodule ``package.name`` when there is
one, else to the package; importing a submodule is not an edge to its parent package.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.support.source_tree import SRC, plant

#: Circles being broken on other branches, allowed until those branches are merged.
#: Temporary: the lead removes an entry when its branch lands (a stale entry fails).
TEMPORARY_CIRCLES: dict[frozenset[str], str] = {}

Graph = dict[str, dict[str, int]]


def _modules(src: Path) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted(src.rglob("*.py")):
        parts = path.relative_to(src.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def import_graph(src: Path = SRC) -> Graph:
    """module → {imported parlour module: line of its first import}."""
    modules = _modules(src)

    def known(name: str) -> str:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name

    graph: Graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: dict[str, int] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join([*parts[: len(parts) - node.level + 1], *filter(None, [base])])
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            else:
                continue
            for target in map(known, targets):
                if target and target != name:
                    edges.setdefault(target, node.lineno)
        graph[name] = edges
    return graph


def _reachable(graph: Graph, start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(graph.get(start, {}))
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(graph.get(node, {}))
    return seen


def circles(graph: Graph) -> list[list[str]]:
    """The groups of modules that import each other, directly or through others (each
    group's modules all reach one another), sorted."""
    reach = {node: _reachable(graph, node) for node in graph}
    groups = {
        frozenset({node} | {other for other in reach[node] if node in reach[other]})
        for node in graph
        if node in reach[node]
    }
    return sorted(sorted(group) for group in groups)


def cycle_path(graph: Graph, component: list[str]) -> str:
    """One cycle through the component's first module, with the importing lines:
    ``a (line 3) -> b (line 9) -> a``."""
    start, members = component[0], set(component)
    # Breadth-first back to the start, so the path shown is a shortest one.
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt_frontier: list[str] = []
        for node in frontier:
            for nxt in sorted(graph[node]):
                if nxt == start:
                    path = paths[node]
                    hops = zip(path, [*path[1:], start], strict=True)
                    steps = [f"{a} (line {graph[a][b]})" for a, b in hops]
                    return " -> ".join([*steps, start])
                if nxt in members and nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    nxt_frontier.append(nxt)
        frontier = nxt_frontier
    raise AssertionError(f"{component} is not a circle")


def _unexpected(src: Path = SRC) -> list[str]:
    graph = import_graph(src)
    return [cycle_path(graph, c) for c in circles(graph) if frozenset(c) not in TEMPORARY_CIRCLES]


def test_no_import_circles() -> None:
    assert _unexpected() == []


def test_temporary_circles_still_exist() -> None:
    # An entry whose circle is gone (its branch merged) must leave the allow-list.
    present = {frozenset(c) for c in circles(import_graph())}
    stale = [sorted(c) for c in TEMPORARY_CIRCLES if c not in present]
    assert stale == []


def test_a_planted_circle_is_reported(tmp_path: Path) -> None:
    planted = [
        ("__init__.py", ""),
        ("a/__init__.py", "from parlour.a.x import X\n"),
        ("a/x.py", "import os\n\nX = 1\n\ndef f():\n    from . import y\n"),
        ("a/y.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import z\n"),
        ("a/z.py", "from parlour.a.x import X\n"),
        ("b.py", "import parlour.a.x\n"),  # into the circle, not part of it
    ]
    src = plant(tmp_path, planted)
    graph = import_graph(src)
    assert circles(graph) == [["parlour.a.x", "parlour.a.y", "parlour.a.z"]]
    assert _unexpected(src) == [
        "parlour.a.x (line 6) -> parlour.a.y (line 3) -> parlour.a.z (line 1) -> parlour.a.x"
    ]
    # A package re-exporting its submodule is no circle: importing a.x runs a/__init__,
    # but a.x does not import the package.
    assert "parlour.a" not in graph["parlour.a.x"]


def test_the_graph_sees_imports() -> None:
    # Not vacuous: the runtime's session imports games and seats; hundreds of edges.
    graph = import_graph()
    assert {"parlour.games.registry", "parlour.seats.base"} <= set(graph["parlour.runtime.session"])
    assert sum(len(e) for e in graph.values()) > 300
