"""The project's import graph, read from the source (no module is imported).

A *room* is a module or package directly inside ``solver/`` or ``api/``
(``solver/engines`` is one room, so is ``api/server``); ``benchmarks`` is one
room.  An edge goes from a room to every room whose modules it imports (at
module level or inside functions).  *Floors* number the rooms of the
condensed graph from the bottom (a room with no project imports is on floor
1; any other sits one above the highest room it imports).  A *cycle* is a
set of modules that import one another; an *upward arrow* breaks a layering
rule of ``RULES`` (the library importing a front end, the shared seam
importing the HTTP server, bulk importing the server's machinery ...);
``ALLOWED`` names the few imports a rule would refuse that are meant.

``python -m tests.import_graph [ROOT]`` prints the figures.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

PACKAGES = ("solver", "api", "benchmarks")

_FRONT_ENDS = ("api.server", "api.cli", "api.bulk", "api.pages")

RULES: tuple[tuple[str, str], ...] = (
    ("solver", "api"),          # the library never imports a front end
    ("solver", "benchmarks"),
    ("api", "benchmarks"),
    ("solver.engines", "solver.hints"),  # engines know nothing of play features
    ("solver.engines", "solver.gin"),
    ("solver.engines", "solver.layoffs"),
    ("solver.engines", "solver.round_scoring"),
    # The shared seam (the registry, its schemas, the one error mapper, the
    # settings) is below every front end and below the solver pool.
    *(("api.shared", upper) for upper in (*_FRONT_ENDS, "api.pool")),
    ("api.shared", "fastapi"),           # one mapper, no web code in the seam
    ("api.shared", "starlette"),
    # The solver pool runs the server's work and bulk's: below both, no web code.
    *(("api.pool", upper) for upper in _FRONT_ENDS),
    ("api.pool", "fastapi"),
    ("api.pool", "starlette"),
    # Bulk runs on the pool, not through the HTTP server.
    ("api.bulk", "api.server"),
    ("api.bulk", "api.cli"),
    ("api.bulk", "api.pages"),
    # The command line does not use the server's machinery (ALLOWED: it starts it).
    ("api.cli", "api.server"),
    ("api.cli", "api.pages"),
    # The server calls no other front end.
    ("api.server", "api.cli"),
    ("api.server", "api.bulk"),
    # The pages are files and their headers, read by the server's routes.
    *(("api.pages", other) for other in ("api.server", "api.cli", "api.bulk", "api.pool")),
    ("solver", "pydantic"),
    ("solver", "fastapi"),
)
"""``(importer prefix, imported prefix)`` pairs that must not occur."""

ALLOWED: tuple[tuple[str, str], ...] = (
    # ``rummy-solver serve`` starts the HTTP server: the command imports it
    # when it runs, the one way from the command line into the server.
    ("api.cli.commands", "api.server.serve"),
)
"""``(importer, imported)`` modules that a rule of ``RULES`` would refuse but
that are meant, each with the reason."""


def module_name(path: Path, root: Path) -> str:
    """``api/bulk/pipeline.py`` -> ``api.bulk.pipeline``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, name: str) -> set[str]:
    """Every module ``path`` imports, by absolute name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


@dataclass(frozen=True)
class Graph:
    """Modules and their imports (project modules only, plus third-party names)."""

    edges: dict[str, set[str]]
    external: dict[str, set[str]]


def read_graph(root: Path) -> Graph:
    """The import graph of the project at ``root``."""
    files = {module_name(p, root): p for package in PACKAGES
             for p in (root / package).rglob("*.py") if (root / package).is_dir()}
    edges: dict[str, set[str]] = {}
    external: dict[str, set[str]] = {}
    for name, path in files.items():
        raw = imports_of(path, name)
        edges[name] = {m for m in raw if m in files and m != name}
        external[name] = {m.split(".")[0] for m in raw if m.split(".")[0] not in PACKAGES}
    return Graph(edges, external)


def room_of(module: str) -> str:
    """The room a module is in."""
    parts = module.split(".")
    if parts[0] == "benchmarks":
        return "benchmarks"
    return ".".join(parts[:2]) if len(parts) > 1 else parts[0]


def strongly_connected(nodes: Iterable[str], edges: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's components (iterative), largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return sorted(components, key=len, reverse=True)


def cycles(graph: Graph) -> list[set[str]]:
    """Sets of project modules that import one another."""
    return [c for c in strongly_connected(sorted(graph.edges), graph.edges) if len(c) > 1]


def rooms(graph: Graph) -> dict[str, set[str]]:
    """Room -> the rooms it imports."""
    out: dict[str, set[str]] = {}
    for module, targets in graph.edges.items():
        room = room_of(module)
        out.setdefault(room, set())
        out[room] |= {room_of(t) for t in targets} - {room}
    return out


def floors(room_edges: dict[str, set[str]]) -> dict[str, int]:
    """Each room's floor in the condensed room graph (see the module docstring)."""
    components = strongly_connected(sorted(room_edges), room_edges)
    component_of = {room: i for i, c in enumerate(components) for room in c}
    level: dict[int, int] = {}

    def floor(i: int) -> int:
        if i not in level:
            below = {component_of[t] for r in components[i] for t in room_edges[r]} - {i}
            level[i] = 1 + max((floor(j) for j in below), default=0)
        return level[i]

    sys.setrecursionlimit(10_000)
    return {room: floor(component_of[room]) for room in room_edges}


def upward_arrows(graph: Graph) -> list[tuple[str, str]]:
    """Imports that break a rule of ``RULES`` (those of ``ALLOWED`` aside)."""
    found = []
    for module, targets in graph.edges.items():
        for target in sorted(targets | graph.external[module]):
            if (module, target) in ALLOWED:
                continue
            for importer, imported in RULES:
                if (module == importer or module.startswith(importer + ".")) and (
                        target == imported or target.startswith(imported + ".")):
                    found.append((module, target))
    return found


def main(argv: list[str]) -> int:
    """Print rooms, floors, cycles and upward arrows of the tree at ``argv[0]``."""
    root = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent
    graph = read_graph(root)
    room_edges = rooms(graph)
    levels = floors(room_edges)
    room_cycles = [c for c in strongly_connected(sorted(room_edges), room_edges) if len(c) > 1]
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for package in PACKAGES
                for p in (root / package).rglob("*.py"))
    print(f"modules {len(graph.edges)}, lines {lines}, rooms {len(room_edges)}, "
          f"floors {max(levels.values())}")
    print(f"module cycles {len(cycles(graph))}: {[sorted(c) for c in cycles(graph)]}")
    print(f"room cycles {len(room_cycles)}: {[sorted(c) for c in room_cycles]}")
    arrows = upward_arrows(graph)
    print(f"upward arrows {len(arrows)}: {arrows}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
