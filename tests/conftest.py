"""Shared pytest setup: the ``--run-slow`` switch, the cross-check summary, mypy
started early (``tests/test_quality.py``), the
playground tests' server, browser and screenshot folder (one of each per test module),
an in-process client of the app (``inline_client``), and the library's engine
settings as each test module found them (``library_settings_kept``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Make ``import solver`` and ``import tests.bruteforce`` work however pytest is started.
_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

from tests.test_quality import MYPY_RUN, MYPY_TEST, start_mypy  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def library_settings_kept() -> Iterator[None]:
    """The library's engine settings (``solver.config.CONFIG``) put back as they
    were after each test module.  An app built in this process (``create_app``)
    hands its settings to the library, which holds them for the whole process:
    a module whose client had a 50 ms default time limit left it to the next
    module's solves on the same test worker, and a hand the library proves in
    18 ms came back ``feasible``, not proved, on a loaded machine."""
    from solver.config import BOUNDS, CONFIG, configure

    kept = {name: getattr(CONFIG, name) for name in BOUNDS}
    yield
    configure(**kept)


@pytest.fixture(scope="module")
def inline_client() -> Iterator[Any]:
    """A test client of the app with no solver processes: every request is
    answered in this process (one per test module)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    from api.server.main import create_app
    from api.shared.settings import Settings

    with TestClient(create_app(Settings(processes=0)), raise_server_exceptions=False) as client:
        yield client


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    """The app with the playground on a free port (``serve_app``); its base URL."""
    from tests.test_playground import serve_app

    with serve_app() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium (``launch_chromium``: the test skips without it)."""
    from tests.test_playground import launch_chromium

    with launch_chromium() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def shots(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temp directory for the screenshots of one browser test module."""
    module = request.module.__name__.rsplit(".", 1)[-1]
    return tmp_path_factory.mktemp(f"{module}-screenshots")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow", action="store_true", default=False,
        help="also run tests marked slow (long cross-checks)",
    )


LONGEST_FIRST = ("test_reliability.py", "test_playground_indian.py", "test_playground_gin.py",
                 "test_cli.py", "test_quality.py", "test_playground.py",
                 "test_benchmarks_advise_load.py", "test_variants_against_bruteforce.py",
                 "test_typescript_client.py", "test_pool.py", "test_arena_basic.py")
"""The test files that take longest (``--durations=0``), run first: with
``--dist loadfile`` a long file handed out last keeps one core busy while
the other waits."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: files stay whole
    if config.getoption("--run-slow"):
        return
    skip_slow = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip_slow)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start mypy (``tests/test_quality.py``) now when its test is to run: it
    uses the second core while this process runs the tests before it."""
    if not any(item.nodeid == MYPY_TEST for item in session.items) or session.config.option.collectonly:
        return
    if hasattr(session.config, "workerinput"):  # pytest-xdist: every core already runs tests
        return
    session.config.stash[MYPY_RUN] = start_mypy()


def pytest_unconfigure(config: pytest.Config) -> None:
    process = config.stash.get(MYPY_RUN, None)
    if process is not None and process.poll() is None:  # the session stopped before its test
        process.kill()
        process.communicate()


_WORKER_COUNTS: dict[str, int] = {}
"""The brute-force counts pytest-xdist's workers sent back (``pytest_testnodedown``)."""


def _brute_force_counts() -> dict[str, int]:
    checked = sys.modules.get("tests.bruteforce")
    return dict(getattr(checked, "CHECKED", None) or {})


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker sends its brute-force counts to the controller."""
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["brute_force_counts"] = _brute_force_counts()


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook
def pytest_testnodedown(node: Any, error: Any) -> None:
    """The controller adds up what each pytest-xdist worker checked."""
    for name, count in getattr(node, "workeroutput", {}).get("brute_force_counts", {}).items():
        _WORKER_COUNTS[name] = _WORKER_COUNTS.get(name, 0) + count


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    counts = _brute_force_counts()
    for name, count in _WORKER_COUNTS.items():
        counts[name] = counts.get(name, 0) + count
    if counts:
        total = sum(counts.values())
        terminalreporter.write_line(
            f"brute-force cross-check: {total} hands: "
            + ", ".join(f"{name}={n}" for name, n in sorted(counts.items()))
        )
