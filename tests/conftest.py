"""Shared pytest setup: the ``--run-slow`` switch and the cross-check summary."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# Make ``import solver`` and ``import tests.bruteforce`` work however pytest is started.
_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow", action="store_true", default=False,
        help="also run tests marked slow (long cross-checks)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    checked = sys.modules.get("tests.bruteforce")
    counts = getattr(checked, "CHECKED", None)
    if counts:
        total = sum(counts.values())
        terminalreporter.write_line(
            f"brute-force cross-check: {total} hands: "
            + ", ".join(f"{name}={n}" for name, n in sorted(counts.items()))
        )
