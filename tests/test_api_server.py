"""The real server: ``rummy-solver serve`` on a free port, called over HTTP.

Uses the console script when it is installed (``pip install -e .``), else
``python -m solver.cli serve``; waits for ``/readyz``, calls ``/v1/solve`` and
``/v1/validate`` with httpx, then stops the server with SIGTERM and expects
a clean exit.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
READY_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 15.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def serve_command(port: int) -> list[str]:
    script = shutil.which("rummy-solver")
    base = [script] if script else [sys.executable, "-m", "solver.cli"]
    return [*base, "serve", "--host", "127.0.0.1", "--port", str(port)]


class Server:
    """A running server process and its base URL."""

    def __init__(self, process: subprocess.Popen[bytes], url: str, log: Path) -> None:
        self.process = process
        self.url = url
        self.log = log

    def output(self) -> str:
        return self.log.read_text(errors="replace")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    port = free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    with log.open("wb") as sink:
        process = subprocess.Popen(
            serve_command(port), cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT
        )
    running = Server(process, f"http://127.0.0.1:{port}", log)
    try:
        deadline = time.monotonic() + READY_TIMEOUT_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"server exited with {process.returncode}:\n{running.output()}")
            try:
                if httpx.get(f"{running.url}/readyz", timeout=2.0).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"server not ready after {READY_TIMEOUT_S} s:\n{running.output()}")
            time.sleep(0.1)
        yield running
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


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
