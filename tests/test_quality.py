"""Static checks run as part of the test suite: ruff and mypy --strict.

mypy takes tens of CPU-seconds on a fresh clone (no ``.mypy_cache``): when
the session holds its test, ``tests/conftest.py`` starts it (``start_mypy``)
as soon as the tests are collected, so it runs on the second core while the
first runs tests, and the test waits for its verdict."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# One run over everything (tests/ has no __init__.py: its modules import each
# other as tests.<name>, hence --explicit-package-bases): as cheap as two runs
# over the package and the tests apart, one process to start early.
MYPY = (sys.executable, "-m", "mypy", "--strict", "--explicit-package-bases",
        "solver", "api", "benchmarks", "tests")
MYPY_TEST = "tests/test_quality.py::test_mypy_strict_clean"
MYPY_RUN = pytest.StashKey["subprocess.Popen[str]"]()
"""The mypy run started by ``tests/conftest.py``, if any."""


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def start_mypy() -> subprocess.Popen[str]:
    """``MYPY`` in the background: its output in one pipe, read by the test."""
    return subprocess.Popen(MYPY, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def test_ruff_clean() -> None:
    if shutil.which("ruff") is None:
        pytest.skip("ruff not installed")
    result = _run("ruff", "check", "solver", "api", "tests", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_clean(request: pytest.FixtureRequest) -> None:
    process = request.config.stash.get(MYPY_RUN, None) or start_mypy()
    output, _ = process.communicate(timeout=900)
    assert process.returncode == 0, output
    assert "Success: no issues found in" in output, output
