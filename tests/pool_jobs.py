"""Job runner used by ``tests/test_pool.py``: jobs that behave well or badly."""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from typing import Any

from api.shared.settings import Settings

WARM_UPS = 0
"""How many times this process ran ``warm_up`` (a process forked from a
forkserver counts the forkserver's too)."""


def warm_up(settings: Settings) -> None:
    """Count one warm-up: a solver process runs it unless it was forked warm
    (``SolverPool``'s ``preload``; ``tests/pool_warmed.py``)."""
    global WARM_UPS
    WARM_UPS += 1


def run(op: str, payload: dict[str, Any], deadline_at: float, budget_ms: float,
        cancelled: Callable[[], bool], settings: Settings,
        request_id: str = "-") -> tuple[int, bytes, dict[str, Any]]:
    """``echo``, ``pid``, ``warm_ups`` (``WARM_UPS``), ``spin`` (stops at its deadline or when cancelled),
    ``sleep`` (ignores both), ``crash`` (the process dies), ``log_level`` (the
    level the process logs ``api`` records at); a ``bulk_chunk``
    holding a line with ``boom`` kills its process, any other is answered as
    ``api.bulk.worker`` answers it."""
    if op == "crash":
        os._exit(3)
    if op == "bulk_chunk":
        if any("boom" in str(line) for line in payload["lines"]):
            os._exit(3)
        from api.bulk.worker import run_chunk

        return run_chunk(op, payload, deadline_at, budget_ms, cancelled, settings, request_id)
    if op == "log_level":
        level = logging.getLevelName(logging.getLogger("api").level)
        return 200, json.dumps({"level": level}).encode(), {}
    if op == "warm_ups":
        return 200, json.dumps({"warm_ups": WARM_UPS}).encode(), {}
    if op == "sleep":
        time.sleep(payload["s"])
    stopped = "done"
    if op == "spin":
        until = time.monotonic() + payload["s"]
        while time.monotonic() < until:
            if cancelled():
                stopped = "cancelled"
                break
            if time.monotonic() >= deadline_at:
                stopped = "deadline"
                break
            time.sleep(0.001)
    body = {"op": op, "pid": os.getpid(), "ppid": os.getppid(), "stopped": stopped,
            "request_id": request_id, "payload": payload}
    return 200, json.dumps(body).encode(), {"optimal": True}
