"""What a module imports, read from its source: the arena's referees must
never import the library they referee (``solver``) but for the games'
words (``solver.play.words``: names of actions, phases and event fields,
no logic), which referee and library share so that each is spelled once."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from pathlib import Path

SHARED_WORDS = ("solver.play.words",)
"""What of ``solver`` a referee may import."""


def imported_names(source: str) -> list[str]:
    """Every name ``source`` imports, by its full dotted path: ``import a.b``
    gives ``a.b``, ``from a import b`` gives ``a.b`` (``b`` may be a module
    or a name in ``a``).

    >>> imported_names("import solver.cards\\nfrom solver.play import words, advise")
    ['solver.cards', 'solver.play.advise', 'solver.play.words']
    """
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            names |= {f"{module}.{alias.name}" for alias in node.names}
    return sorted(names)


def solver_imports(path: Path, allowed: Sequence[str] = SHARED_WORDS) -> list[str]:
    """The ``solver`` names the Python file at ``path`` imports, less
    ``allowed`` and what is inside them (empty: none).

    >>> solver_imports(Path(__file__))
    []
    """
    found = []
    for name in imported_names(path.read_text()):
        if not (name == "solver" or name.startswith("solver.")):
            continue
        if any(name == shared or name.startswith(shared + ".") for shared in allowed):
            continue
        found.append(name)
    return found
