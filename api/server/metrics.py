"""Prometheus metrics (``GET /metrics``), safe across uvicorn workers.

Series are prefixed ``rummy_solver_``: requests by route and status, request
latency by route, solves by variant, engine and status, deadline hits by
route, the solver queue depth and busy solvers (summed over workers), and
with Redis for the rate limits whether it answers (the latest call to it
of any worker) and the checks it failed.

With several workers ``rummy-solver serve`` points ``PROMETHEUS_MULTIPROC_DIR``
(``Settings.prometheus_multiproc_dir``) at a fresh directory before the
workers start; prometheus-client then keeps each worker's values in files
there and ``/metrics`` adds them up (``MultiProcessCollector``).  In a single
process the default registry is used.
"""

from __future__ import annotations

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from api.shared.settings import Settings

REQUESTS = Counter("rummy_solver_requests_total", "HTTP requests answered",
                   ["route", "method", "status"])
LATENCY = Histogram("rummy_solver_request_duration_seconds", "Time to answer a request",
                    ["route"],
                    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
                             5, 10))
SOLVES = Counter("rummy_solver_solves_total", "Answers that carry a solution",
                 ["variant", "engine", "status"])
DEADLINE_HITS = Counter("rummy_solver_deadline_hits_total",
                        "Requests whose deadline cut the work short (answered not optimal, not "
                        "complete or 503)",
                        ["route"])
QUEUE_DEPTH = Gauge("rummy_solver_queue_depth", "Requests waiting for a solver process",
                    multiprocess_mode="livesum")
BUSY = Gauge("rummy_solver_busy_solvers", "Solver processes running a request",
             multiprocess_mode="livesum")
REDIS_UP = Gauge("rummy_solver_redis_up",
                 "1 when Redis answered the last call in time, 0 when not (only with "
                 "RUMMY_SOLVER_REDIS_URL; the latest call of any worker)", ["use"],
                 multiprocess_mode="livemostrecent")
RATE_LIMIT_FAILURES = Counter(
    "rummy_solver_rate_limit_failures_total",
    "Rate limit checks the counter (Redis) failed, answered by RUMMY_SOLVER_RATE_LIMIT_FAIL: "
    "let through uncounted (open) or refused with 503 (closed)", ["policy"])


def shared_across_workers(settings: Settings) -> bool:
    """Whether the workers keep their values in files (prometheus-client reads
    the same variable itself, at import, to decide how it stores them)."""
    return bool(settings.prometheus_multiproc_dir)


def render(settings: Settings) -> tuple[bytes, str]:
    """The exposition text of every series (all workers' in multiprocess mode)."""
    if shared_across_workers(settings):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(), CONTENT_TYPE_LATEST


def worker_exited(pid: int, settings: Settings) -> None:
    """Drop a stopped worker's live gauges (multiprocess mode)."""
    if shared_across_workers(settings):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]
