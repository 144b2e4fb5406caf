"""``rummy-solver serve``: uvicorn workers behind one listening socket.

* The listening socket is bound here, as TCP (uvicorn's own multi-worker bind
  leaves Nagle's algorithm on: ~40 ms added to every response).
* SIGTERM (or Ctrl-C): the supervisor closes its copy of the socket at once and
  the workers close theirs, so new connections are refused instead of waiting
  in a backlog nobody reads; requests in flight get ``RUMMY_SOLVER_DRAIN_S``
  seconds to finish, then everything exits.
* A worker is replaced when it has not answered the supervisor's health check
  for ``WORKER_HEALTHCHECK_S`` (uvicorn's default, 5 s, can kill a worker that
  a busy machine only starved, and every request it held is dropped).
* Logs are JSON lines with the request id (``api.shared.logs``); with several workers
  Prometheus keeps per-worker files in a fresh ``PROMETHEUS_MULTIPROC_DIR``.
"""

from __future__ import annotations

import atexit
import errno
import os
import shutil
import signal
import socket
import sys
import tempfile
from types import FrameType
from typing import TYPE_CHECKING

from api.server.keys import KeyRing
from api.shared.errors import RequestRejected
from api.shared.logs import log_config
from api.shared.settings import Settings, current, export

if TYPE_CHECKING:
    from uvicorn.supervisors import Multiprocess

WORKER_HEALTHCHECK_S = 30
"""How long the supervisor waits for a worker to answer its health check
before it kills the worker as hung and starts another.  The answer comes
from a thread of the worker, which needs the CPU and the GIL: on a machine
with more runnable processes than cores it can take over uvicorn's 5 s
(a worker was replaced in the middle of a test run on an overloaded
machine), and the kill drops the worker's requests in flight.  A worker does
no solving itself (its solver processes do), so a real hang is a fault that
30 s still replaces."""


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(2048)
    except OSError:
        listener.close()
        raise
    listener.set_inheritable(True)
    return listener


def _metrics_dir(workers: int, settings: Settings) -> None:
    if workers > 1 and not settings.prometheus_multiproc_dir:
        path = tempfile.mkdtemp(prefix="rummy-solver-metrics-")
        export(prometheus_multiproc_dir=path)
        atexit.register(shutil.rmtree, path, True)


def supervisor_class() -> type[Multiprocess]:
    """uvicorn's supervisor of the workers, closing its listening socket as
    soon as it is asked to stop (uvicorn is imported when the service starts)."""
    from uvicorn.supervisors import Multiprocess

    class Supervisor(Multiprocess):
        """uvicorn's supervisor, closing its listening socket as soon as asked to stop."""

        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            for sig in (signal.SIGTERM, signal.SIGINT):
                signal.signal(sig, self._stop_accepting)

        def _stop_accepting(self, sig: int, frame: FrameType | None) -> None:
            # At once, not at the supervisor's next 0.5 s poll: until every
            # worker has closed its copy of the socket, new connections land.
            # Exiting first, so the supervisor never restarts a worker on
            # the closed socket. The workers are told to drain here, but not
            # by uvicorn's terminate_all, which also closes the pipes of its
            # health check: this handler runs between two steps of the main
            # thread, which may be writing a ping on one of them, and then
            # failed (TypeError: the supervisor exited 1) or took the
            # draining worker for hung and killed it. run() calls
            # terminate_all itself once its loop has seen should_exit.
            self.should_exit.set()
            for sock in self.sockets:
                sock.close()
            for process in self.processes:
                if process.exitcode is None and process.pid is not None:
                    os.kill(process.pid, signal.SIGTERM)

    return Supervisor


def serve(host: str, port: int, workers: int, log_level: str) -> int:
    """Run the service until SIGTERM / Ctrl-C; returns the exit code.

    A setting or key file it cannot use raises ``SettingsError``, an address it
    cannot listen on ``RequestRejected`` (``invalid_value`` at ``host`` or
    ``port``): the command line prints them as every command's errors (with
    ``--json`` too) and exits 2, a run that could not start."""
    settings = current()
    KeyRing.from_settings(settings)
    # Bound before anything global changes (uvicorn's Config sets up logging):
    # a run that cannot start leaves the process as it found it.
    try:
        listener = _listen(host, port)
    except OSError as error:
        address = isinstance(error, socket.gaierror) or error.errno == errno.EADDRNOTAVAIL
        raise RequestRejected.one(
            "invalid_value", ["host" if address else "port"],
            f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    # The workers (uvicorn's, and with one worker the app made in this process)
    # read their settings from the environment: the command's level goes there.
    export(log_level=log_level)
    _metrics_dir(workers, settings)
    import uvicorn

    from api.server.protocol import PROTOCOL

    config = uvicorn.Config(
        "api.server.main:app", host=host, port=port, workers=workers, log_level=log_level,
        log_config=log_config(log_level), access_log=False, http=PROTOCOL,
        # At the drain's end uvicorn cancels what is left: the app answers
        # those requests 503 (CatchAllMiddleware) and ends streams with a line.
        timeout_graceful_shutdown=settings.drain_s,
        timeout_worker_healthcheck=WORKER_HEALTHCHECK_S,
        # The client address behind a trusted proxy: the failed-key limit counts by it.
        forwarded_allow_ips=settings.forwarded_allow_ips,
    )
    print(f"rummy-solver: serving on http://{host}:{port} with {workers} worker(s) and "
          f"{settings.processes} solver process(es) each; SIGTERM drains for at most "
          f"{settings.drain_s} s", file=sys.stderr)
    if workers <= 1:
        uvicorn.Server(config).run(sockets=[listener])
        return 0

    supervisor_class()(config, sockets=[listener]).run()
    return 0
