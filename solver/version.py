"""What is running: the package, OR-Tools and Python versions.

``rummy-solver --version``, ``GET /version`` and ``solver.__version__`` all
report from here.
"""

from __future__ import annotations

import platform
from importlib.metadata import PackageNotFoundError, version

from solver import __version__


def version_info() -> dict[str, str]:
    """``{"package", "version", "ortools", "python"}``."""
    try:
        ortools = version("ortools")
    except PackageNotFoundError:  # pragma: no cover - ortools is a dependency
        ortools = "unknown"
    return {"package": "rummy-solver", "version": __version__, "ortools": ortools,
            "python": platform.python_version()}
