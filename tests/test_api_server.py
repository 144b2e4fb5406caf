"""The real server: ``rummy-solver serve`` on a free port, called over HTTP.

Uses the console script when it is installed (``pip install -e .``), else
``python -m api serve``; waits for ``/readyz``, calls ``/v1/solve`` and
``/v1/validate`` with httpx, then stops the server with SIGTERM and expects
a clean exit.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import socket
import subprocess
from collections.abc import Iterator

import httpx
import pytest

from benchmarks.service.load import Server, build_requests, free_port, run_phase

READY_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 15.0


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server(workers=None, log_level=None)  # the command's own defaults
    try:
        running.wait_ready(timeout_s=READY_TIMEOUT_S)
    except RuntimeError as error:
        running.close()
        pytest.fail(str(error))
    try:
        yield running
    finally:
        running.close()


def test_solve_over_http(server: Server) -> None:
    response = httpx.post(
        f"{server.url}/v1/solve",
        json={"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"},
        timeout=10.0,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["deadwood_points"] == 33
    assert body["optimal"] is True
    assert body["elapsed_ms"] >= 0


def test_the_load_client_paces_its_requests_and_counts_what_fails(server: Server) -> None:
    """``benchmarks.service.load``'s open loop (the half-load phase of the goodput
    benchmark): every request due in the phase answered 200 over
    connections opened before the clock; against a port nobody listens on,
    each connection's failures are counted, not raised."""
    phase = run_phase(server.port, build_requests("gin10", server.port, n=5), 0.5,
                      concurrency=4, rate=40)
    assert phase.errors == 0, phase.first_error
    assert len(phase.latencies) == 20  # due at 0, 25, ... 475 ms
    dead = free_port()
    failed = run_phase(dead, build_requests("gin10", dead, n=2), 0.05, concurrency=2, rate=20)
    assert failed.errors >= 2 and not failed.latencies
    assert failed.first_error is not None and "Connect" in failed.first_error


def test_validate_over_http(server: Server) -> None:
    response = httpx.post(
        f"{server.url}/v1/validate",
        json={
            "variant": "gin",
            "melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"]],
            "deadwood": ["KD", "QH", "4C", "9S"],
        },
        timeout=10.0,
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["valid"] is True
    assert body["deadwood_points"] == 33


def test_domain_error_over_http(server: Server) -> None:
    response = httpx.post(
        f"{server.url}/v1/solve", json={"variant": "gin", "hand": ["AS", "ZZ"]}, timeout=10.0
    )
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "hand", 1]


def test_server_stops_cleanly(server: Server) -> None:
    """Last in the module: SIGTERM ends the server with exit status 0."""
    server.process.send_signal(signal.SIGTERM)
    try:
        code = server.process.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"server still running {STOP_TIMEOUT_S} s after SIGTERM")
    assert code == 0, server.output()


class _Worker:
    """Stands in for uvicorn's worker process: running, and the pipe of the
    supervisor's health check; ``terminate`` closes it, as uvicorn's does."""

    def __init__(self, pid: int) -> None:
        self.pid, self.exitcode = pid, None
        self.parent_conn, self.child_conn = multiprocessing.Pipe()

    def terminate(self) -> None:
        self.parent_conn.close()
        self.child_conn.close()


def test_a_stop_signal_leaves_the_health_check_pipes_to_uvicorn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The supervisor's SIGTERM handler runs between two steps of the main
    thread, which may be writing a health-check ping to a worker: it closes
    the listening socket and tells each worker to drain, and leaves the
    pipes open (closing them under the ping made the supervisor exit 1, or
    kill a draining worker it then took for hung)."""
    import uvicorn

    from api.server.serve import supervisor_class

    handlers = {sig: signal.getsignal(sig) for sig in signal.valid_signals()
                if sig not in (signal.SIGKILL, signal.SIGSTOP)}
    told: list[tuple[int, int]] = []
    monkeypatch.setattr(os, "kill", lambda pid, sig: told.append((pid, sig)))
    listener = socket.socket()
    try:
        supervisor = supervisor_class()(uvicorn.Config("api.server.main:app", workers=2),
                                        sockets=[listener])
        workers = [_Worker(101), _Worker(102)]
        supervisor.processes = workers  # type: ignore[assignment]
        stop = signal.getsignal(signal.SIGTERM)
        assert callable(stop)  # the supervisor's own handler
        stop(signal.SIGTERM, None)
        assert supervisor.should_exit.is_set() and listener.fileno() == -1
        assert told == [(101, signal.SIGTERM), (102, signal.SIGTERM)]
        for worker in workers:  # the interrupted ping goes through
            worker.parent_conn.send(b"ping")
            assert worker.child_conn.recv() == b"ping"
    finally:
        listener.close()
        for sig, handler in handlers.items():
            with contextlib.suppress(OSError, ValueError, TypeError):
                signal.signal(sig, handler)
