"""What a module imports, read from its source: the arena's referees must
never import the library they referee (``solver``)."""

from __future__ import annotations

import ast
from pathlib import Path


def solver_imports(path: Path) -> list[str]:
    """The ``solver`` modules the Python file at ``path`` imports (empty: none).

    >>> solver_imports(Path(__file__))
    []
    """
    nodes = list(ast.walk(ast.parse(path.read_text())))
    imported = {alias.name for node in nodes if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module or "" for node in nodes if isinstance(node, ast.ImportFrom)}
    return sorted(name for name in imported if name == "solver" or name.startswith("solver."))
