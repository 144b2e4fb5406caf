"""The import graph (``tests/import_graph.py``): no cycles and no upward arrows
in the project, and each layering rule refuses what it promises to."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.import_graph import ALLOWED, cycles, read_graph, rooms, strongly_connected, upward_arrows

ROOT = Path(__file__).resolve().parent.parent


def test_the_project_has_no_cycles_and_no_upward_arrows() -> None:
    graph = read_graph(ROOT)
    room_edges = rooms(graph)
    assert cycles(graph) == []
    assert [c for c in strongly_connected(sorted(room_edges), room_edges) if len(c) > 1] == []
    assert upward_arrows(graph) == []


def test_only_the_serve_command_reaches_into_the_server() -> None:
    graph = read_graph(ROOT)
    reached = {(module, target) for module, targets in graph.edges.items() for target in targets
               if not module.startswith("api.server") and target.startswith("api.server")}
    assert reached == set(ALLOWED)


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


_PACKAGES = {f"api/{folder}/__init__.py": "" for folder in
             ("shared", "pool", "server", "cli", "bulk", "pages")} | {
    "api/__init__.py": "", "api/server/serve.py": "", "api/server/main.py": "",
    "api/pool/solver_pool.py": "", "api/cli/commands.py": "", "api/bulk/command.py": "",
    "api/pages/assets.py": "",
}


@pytest.mark.parametrize(("module", "imports"), [
    ("api/shared/operations.py", "from api.server.main import create_app"),
    ("api/shared/operations.py", "from api.pool.solver_pool import SolverPool"),
    ("api/shared/operations.py", "from api.cli.commands import main"),
    ("api/shared/settings.py", "from api.bulk import command"),
    ("api/shared/schemas.py", "from api.pages import assets"),
    ("api/shared/errors.py", "from fastapi import Request"),
    ("api/pool/jobs.py", "from api.server import main"),
    ("api/pool/jobs.py", "from api.bulk.command import run"),
    ("api/pool/jobs.py", "import starlette"),
    ("api/bulk/on_pool.py", "from api.server.main import create_app"),
    ("api/bulk/on_pool.py", "from api.cli.commands import main"),
    ("api/cli/commands.py", "from api.server.main import create_app"),
    ("api/server/stream.py", "from api.bulk.command import run"),
    ("api/server/main.py", "from api.cli import main"),
    ("api/pages/assets.py", "from api.server.main import create_app"),
])
def test_a_layer_importing_upward_is_an_arrow(tmp_path: Path, module: str, imports: str) -> None:
    _tree(tmp_path, {**_PACKAGES, module: imports + "\n"})
    assert upward_arrows(read_graph(tmp_path)), f"{module}: {imports} was not refused"


def test_the_serve_command_may_start_the_server(tmp_path: Path) -> None:
    _tree(tmp_path, {**_PACKAGES, "api/cli/commands.py": "def serve() -> None:\n"
                                                     "    from api.server.serve import serve\n",
                     "api/bulk/command.py": "from api.pool.solver_pool import SolverPool\n",
                     "api/server/main.py": "from api.pages import assets\n"
                                           "from api.shared import settings\n",
                     "api/shared/settings.py": ""})
    assert upward_arrows(read_graph(tmp_path)) == []


def test_an_event_loop_worker_loads_no_solver_engine() -> None:
    """A uvicorn worker parses, checks and hands jobs on (``api.server.dispatch``);
    CP-SAT (with the pandas it loads), the solver processes' job runner and the
    advisor's tables belong to the solver processes.  The worker once loaded
    them all for one JSON helper: about a second of every worker's start and
    half its memory (135 MB against 68)."""
    heavy = ("ortools", "pandas", "api.pool.jobs", "solver.engines.cpsat")
    script = ("import sys, api.server.main; "
              f"print([m for m in {heavy!r} if m in sys.modules])")
    loaded = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip()
    assert loaded == "[]"
