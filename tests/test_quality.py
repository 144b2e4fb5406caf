"""Static checks run as part of the test suite: ruff and mypy --strict."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_clean() -> None:
    if shutil.which("ruff") is None:
        pytest.skip("ruff not installed")
    result = _run("ruff", "check", "solver", "api", "tests", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_clean() -> None:
    result = _run(sys.executable, "-m", "mypy", "--strict", "solver", "api", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr
    # tests/ has no __init__.py: its modules import each other as tests.<name>
    result = _run(sys.executable, "-m", "mypy", "--strict", "--explicit-package-bases", "tests")
    assert result.returncode == 0, result.stdout + result.stderr
