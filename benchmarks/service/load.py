"""API load test: the real server under a bounded concurrent client, loopback only.

For each worker count the server is started as ``rummy-solver serve --host
127.0.0.1 --port P --workers W`` (P a free loopback port), ``/readyz`` is
awaited, and ``POST /v1/solve`` is driven for a fixed time per payload suite:

* **max rate** -- a closed loop: ``concurrency`` keep-alive connections, each
  sending its next request as soon as the previous answer arrives;
* **half rate** -- an open loop at half the max rate just measured: request
  ``i`` is due at ``t0 + i / rate`` and its latency counts from that due time,
  so a stalled server cannot hide queueing (no coordinated omission).

The client is a minimal HTTP/1.1 keep-alive client on asyncio streams (far
cheaper per request than a general-purpose client, which matters because the
client shares this machine's cores with the server), on uvloop where it is
installed (``run_phase``; the server's own loop, a fifth cheaper again).  Its
connections are opened before a phase's clock starts: 32 handshakes at once
are a client's start-up, not the steady state a phase measures.  The server
is stopped with SIGTERM, then killed (its own process group only) if it does
not exit.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import itertools
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.arena.core.stats import percentile
from benchmarks.speed.suites import DEFAULT_SEED, SUITES, generate

HOST = "127.0.0.1"
LOAD_SUITES: tuple[str, ...] = ("gin10", "indian13_14")
WORKER_COUNTS: tuple[int, ...] = (1, 2)
CONCURRENCY = 16
WARMUP_SECONDS = 2.0
READY_TIMEOUT_S = 60.0
ROOT = Path(__file__).resolve().parents[2]


def api_unavailable() -> str | None:
    """``None`` when the API app can be imported, else why not."""
    try:
        if importlib.util.find_spec("api.server.main") is None:
            return "api.server.main does not exist yet"
        importlib.import_module("api.server.main")
    except Exception as error:  # any import failure means: no server to test
        return f"api.server.main is not importable ({type(error).__name__}: {error})"
    return None


def free_port() -> int:
    """A currently free TCP port on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def serve_command(port: int, workers: int | None, log_level: str | None = "warning") -> list[str]:
    """``rummy-solver serve`` on loopback (the module form if the script is not on
    PATH); ``None`` leaves an option at the command's default."""
    script = shutil.which("rummy-solver")
    head = [script] if script else [sys.executable, "-m", "api"]
    command = [*head, "serve", "--host", HOST, "--port", str(port)]
    if workers is not None:
        command += ["--workers", str(workers)]
    if log_level is not None:
        command += ["--log-level", log_level]
    return command


class Server:
    """The API server (``rummy-solver serve``) as a subprocess in its own
    process group, its output kept in a temporary file; ``settings`` are
    ``RUMMY_SOLVER_*`` variables for it (``{"drain_s": "3"}``).  The benchmarks'
    and the tests' one way to run the real server."""

    def __init__(self, workers: int | None, log_level: str | None = "warning",
                 settings: Mapping[str, str] | None = None) -> None:
        self.workers = workers
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env.update({f"RUMMY_SOLVER_{k.upper()}": v for k, v in (settings or {}).items()})
        # Lives as long as the server; closed in close().
        self.log = tempfile.TemporaryFile()  # noqa: SIM115
        self.process = subprocess.Popen(
            serve_command(self.port, workers, log_level), cwd=ROOT, env=env,
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        """Everything the server printed so far."""
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def server_ms(self) -> dict[str, float]:
        """Milliseconds from arrival to answer per request id, from the access
        log (``log_level="info"``; empty at other levels)."""
        times: dict[str, float] = {}
        for line in self.output().splitlines():
            if '"api.access"' not in line:
                continue
            with contextlib.suppress(ValueError, KeyError, TypeError):
                entry = json.loads(line)
                times[str(entry["request_id"])] = float(entry["ms"])
        return times

    def wait_ready(self, answers: int = 1, timeout_s: float = READY_TIMEOUT_S) -> None:
        """Poll ``GET /readyz`` until it answered 200 ``answers`` times (several:
        every worker is likely up); raise with the server log if not."""
        deadline = time.monotonic() + timeout_s
        url = f"{self.url}/readyz"
        ready = 0
        while ready < answers:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}:\n"
                                   f"{self.output()[-2000:]}")
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    ready += response.status == 200
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if ready < answers and time.monotonic() > deadline:
                raise RuntimeError(f"server not ready after {timeout_s:.0f} s:\n"
                                   f"{self.output()[-2000:]}")
            time.sleep(0.05)

    def stop(self, timeout_s: float = 15.0) -> bool:
        """SIGTERM (uvicorn shuts its workers down), then SIGKILL to its own group.

        Returns whether the shutdown was clean: exit code 0, or -SIGTERM, which
        a single-process uvicorn re-raises after its graceful shutdown.  The
        output stays readable until ``close()``.
        """
        killed = False
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout_s)
            except subprocess.TimeoutExpired:
                killed = True
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)
        return not killed and self.process.returncode in (0, -signal.SIGTERM)

    def close(self) -> None:
        """Stop the server if it runs and drop its output."""
        self.stop()
        self.log.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def build_requests(suite: str, port: int, n: int = 200, seed: int = DEFAULT_SEED) -> list[bytes]:
    """Raw ``POST /v1/solve`` requests for ``n`` hands of ``suite``."""
    requests = []
    for case in generate(suite, n, seed):
        body = json.dumps(case.payload(SUITES[suite])).encode()
        head = (f"POST /v1/solve HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
        requests.append(head.encode() + body)
    return requests


class Connection:
    """One keep-alive HTTP/1.1 connection (reconnects when the server closes it)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        """Connect, unless connected (the server may have closed it while idle:
        its keep-alive timeout)."""
        if self.reader is not None and self.reader.at_eof():
            await self.close()
        if self.writer is None or self.reader is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)

    async def request(self, raw: bytes) -> tuple[int, bytes]:
        """Send ``raw`` and return the status code and body."""
        await self.open()
        assert self.reader is not None and self.writer is not None
        reader = self.reader
        self.writer.write(raw)
        status_line = await reader.readline()
        if not status_line:
            raise ConnectionError("server closed the connection")
        status = int(status_line.split()[1])
        length, chunked, close = 0, False, False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value:
                chunked = True
            elif name == "connection" and value == "close":
                close = True
        body = await self._chunked(reader) if chunked else await reader.readexactly(length)
        if close:
            await self.close()
        return status, body

    @staticmethod
    async def _chunked(reader: asyncio.StreamReader) -> bytes:
        parts = []
        while size := int((await reader.readline()).split(b";")[0], 16):
            parts.append(await reader.readexactly(size))
            await reader.readline()
        await reader.readline()
        return b"".join(parts)

    async def close(self) -> None:
        """Close the socket (a later request reconnects)."""
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


@dataclass(slots=True)
class Phase:
    """Latencies and errors of one timed phase."""

    latencies: list[float]
    errors: int
    seconds: float
    first_error: str | None = None
    client_cpu_s: float = 0.0

    def summary(self) -> dict[str, Any]:
        """Requests per second and latency percentiles in milliseconds."""
        ordered = sorted(self.latencies)
        return {
            "requests": len(ordered),
            "errors": self.errors,
            "first_error": self.first_error,
            "seconds": self.seconds,
            "requests_per_s": len(ordered) / self.seconds if self.seconds else 0.0,
            "p50_ms": statistics.median(ordered) * 1e3 if ordered else None,
            "p99_ms": percentile(ordered, 0.99) * 1e3 if ordered else None,
            "max_ms": ordered[-1] * 1e3 if ordered else None,
            # share of one core the client itself used: near 1.0 means the
            # client, not the server, may be the limit
            "client_cpu_share": self.client_cpu_s / self.seconds if self.seconds else None,
        }


async def drive(port: int, requests: Sequence[bytes], seconds: float,
                concurrency: int = CONCURRENCY, rate: float | None = None) -> Phase:
    """Send ``requests`` round-robin for ``seconds``: closed loop, or open loop at
    ``rate``/s, over ``concurrency`` connections opened before the clock starts."""
    loop = asyncio.get_running_loop()
    clock = loop.time
    counter: Iterator[int] = itertools.count()
    latencies: list[float] = []
    phase = Phase(latencies, 0, seconds)
    connections = [Connection(port) for _ in range(concurrency)]
    opened = await asyncio.gather(*(c.open() for c in connections), return_exceptions=True)
    for outcome in opened:  # a connection that failed to open tries again on its first request
        if isinstance(outcome, BaseException):
            phase.errors += 1
            phase.first_error = phase.first_error or f"{type(outcome).__name__}: {outcome}"
    cpu_start = time.process_time()
    start = clock()
    deadline = start + seconds

    async def worker(connection: Connection) -> None:
        try:
            while True:
                index = next(counter)
                if rate is None:
                    due = clock()
                    if due >= deadline:
                        return
                else:
                    due = start + index / rate
                    if due >= deadline:
                        return
                    if (delay := due - clock()) > 0:
                        await asyncio.sleep(delay)
                try:
                    status, body = await connection.request(requests[index % len(requests)])
                except (ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError) as error:
                    phase.errors += 1
                    phase.first_error = phase.first_error or f"{type(error).__name__}: {error}"
                    await connection.close()
                    continue
                if status == 200:
                    latencies.append(clock() - due)
                else:
                    phase.errors += 1
                    phase.first_error = phase.first_error or f"HTTP {status}: {body[:200]!r}"
        finally:
            await connection.close()

    await asyncio.gather(*(worker(connection) for connection in connections))
    phase.seconds = clock() - start
    phase.client_cpu_s = time.process_time() - cpu_start
    return phase


def run_phase(port: int, requests: Sequence[bytes], seconds: float,
              concurrency: int = CONCURRENCY, rate: float | None = None) -> Phase:
    """``drive`` in an event loop of its own: uvloop's where it is installed
    (the server's loop; the client then takes less of the cores it shares with
    the server), asyncio's otherwise."""
    coroutine = drive(port, requests, seconds, concurrency, rate)
    if importlib.util.find_spec("uvloop") is not None:
        import uvloop  # here: an optional dependency (not on Windows)

        return uvloop.run(coroutine)
    return asyncio.run(coroutine)


def load_one(server: Server, suite: str, seconds: float) -> dict[str, Any]:
    """Max-rate and half-rate phases of one payload suite against a running server."""
    requests = build_requests(suite, server.port)
    run_phase(server.port, requests, WARMUP_SECONDS)
    peak = run_phase(server.port, requests, seconds).summary()
    half_rate = peak["requests_per_s"] / 2
    half = run_phase(server.port, requests, seconds, rate=half_rate).summary() \
        if half_rate > 0 else None
    return {"suite": suite, "workers": server.workers, "concurrency": CONCURRENCY,
            "max": peak, "half_rate": half_rate, "half": half}


def run_load(seconds: float = 20.0, suites: Sequence[str] = LOAD_SUITES,
             worker_counts: Sequence[int] = WORKER_COUNTS,
             progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The whole load test; ``{"skipped": reason}`` when the API cannot run."""
    reason = api_unavailable()
    if reason is not None:
        return {"skipped": reason}
    results: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    clean: dict[int, bool] = {}
    for workers in worker_counts:
        server = Server(workers)
        try:
            server.wait_ready()
            for suite in suites:
                if progress is not None:
                    progress(f"load: {workers} worker(s), {suite}, {seconds:.0f} s max + "
                             f"{seconds:.0f} s at half rate")
                results.append(load_one(server, suite, seconds))
        except RuntimeError as error:
            errors.append({"workers": workers, "error": str(error)})
        finally:
            clean[workers] = server.stop()
            server.close()
    return {"cpu_count": os.cpu_count(), "seconds": seconds, "concurrency": CONCURRENCY,
            "runs": results, "errors": errors, "clean_shutdown": clean}
