"""Deadline suite: the real server answers hostile and heavy requests in time.

Starts ``python -m api serve --host 127.0.0.1 --port P --workers 2
--log-level info`` (``rummy-solver serve``; this checkout first on
``PYTHONPATH``) in its own process group, waits until ``/readyz`` has
answered 200 four times, then:

* **hostile bodies** -- each body of ``benchmarks.service.hostile.hostile_bodies()``
  sent alone, in turn, over one keep-alive ``httpx.Client`` (as a game server
  holds one; a fresh ``httpx.post`` builds an SSL context per call, tens of
  ms of the client's own time), with ``time_limit_ms`` 1 and 300, and (all
  but the batch) with no limit, i.e. the server's default (``/v1/solve``: the default
  solve limit, 1 s; every other endpoint: the request budget, 5 s; from
  ``api.shared.settings.load_settings()``).  Reported per request: status,
  client-side ms (``time.perf_counter`` around the ``httpx`` call),
  server-side ms (arrival to answer, from the server's JSON
  access log line for the request's ``X-Request-ID``), answer bytes, and
  whether both clocks are within the limit + 100 ms;
* **heavy concurrency** -- 40 threads each POST one heavy solve at once
  (one shared keep-alive client with room for 64 connections)
  (``indian21``, ``rules={"decks": 8, "ace": "wrap"}``, ``wild_rank`` ``7H``,
  30 random cards of 8 decks + 8 jokers, ``time_limit_ms`` 1500) while a
  prober GETs ``/healthz`` every 50 ms.  Reported: answers by status (200,
  503 with ``Retry-After``, other), connection errors, the server-side and
  client-side max against the limit, ``/healthz`` p50 / p99 / max (the
  prober has its own keep-alive client) and whether a worker was replaced
  (the log says ``Child process [pid] died``, or ``Terminated child process``
  before the final SIGTERM).

The 40 client threads share the 2 cores with the server, so client-side
times include the client's own queueing; the deadline is judged on the
server's clock, as ``tests/test_reliability.py`` does for this test.  The
server is stopped with SIGTERM (then SIGKILL to its own group).  Never
asserts; ``report.targets`` compares against the limits.
"""

from __future__ import annotations

import random
import re
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx

from api.shared.settings import load_settings
from benchmarks.arena.core.stats import percentile
from benchmarks.service.hostile import deck, hostile_bodies
from benchmarks.service.load import Server, api_unavailable

MARGIN_MS = 100.0
LIMITS_MS: tuple[int | None, ...] = (1, 300, None)
HEAVY_REQUESTS = 40
HEAVY_LIMIT_MS = 1500
PROBE_EVERY_S = 0.05
WORKERS = 2
REPLACED = re.compile(r"Child process \[\d+\] died")  # uvicorn replacing a dead worker


def default_limits_ms() -> dict[str, int]:
    """The server's limit for a request without ``time_limit_ms``, by kind."""
    try:
        settings = load_settings()
        return {"solve": settings.default_time_limit_ms, "other": settings.request_budget_ms}
    except Exception:  # settings unreadable: the documented defaults
        return {"solve": 1000, "other": 5000}


class LoggedServer(Server):
    """``rummy-solver serve`` with ``--log-level info``: its access log gives
    each request's time on the server's clock."""

    def __init__(self, workers: int = WORKERS) -> None:
        super().__init__(workers, log_level="info")

    def replaced_workers(self) -> list[str]:
        """Log lines saying a worker died and was replaced."""
        return [line[:300] for line in self.output().splitlines() if REPLACED.search(line)]



def _limit_for(path: str, limit_ms: int | None, defaults: dict[str, int]) -> int:
    if limit_ms is not None:
        return limit_ms
    return defaults["solve"] if path == "/v1/solve" else defaults["other"]


def run_hostile(server: LoggedServer, limits: tuple[int | None, ...] = LIMITS_MS,
                progress: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
    """Every hostile body at every limit, one at a time; rows without server times yet."""
    defaults = default_limits_ms()
    rows: list[dict[str, Any]] = []
    with httpx.Client(timeout=60.0) as client:
        _hostile_rounds(server, client, limits, defaults, rows, progress)
    return rows


def _hostile_rounds(server: LoggedServer, client: httpx.Client, limits: tuple[int | None, ...],
                    defaults: dict[str, int], rows: list[dict[str, Any]],
                    progress: Callable[[str], None] | None) -> None:
    for limit_ms in limits:
        if progress is not None:
            progress(f"deadline: hostile bodies, time_limit_ms {limit_ms or 'default'}")
        for index, (name, path, body) in enumerate(hostile_bodies()):
            if limit_ms is None and path.endswith("/batch"):
                continue  # the default budget (5 s) of a 300-hand batch adds nothing
            sent = body if limit_ms is None else {**body, "time_limit_ms": limit_ms}
            request_id = f"hostile-{index}-{limit_ms or 'default'}"
            row: dict[str, Any] = {"name": name, "path": path, "time_limit_ms": limit_ms,
                                   "limit_ms": _limit_for(path, limit_ms, defaults),
                                   "request_id": request_id}
            started = time.perf_counter()
            try:
                response = client.post(server.url + path, json=sent, timeout=60.0,
                                       headers={"X-Request-ID": request_id})
                row.update(status=response.status_code, bytes=len(response.content),
                           retry_after=response.headers.get("retry-after"))
                if response.status_code != 200:
                    row["answer_head"] = response.text[:300]
            except httpx.HTTPError as error:
                row.update(status=None, bytes=0, error=repr(error))
            row["client_ms"] = (time.perf_counter() - started) * 1e3
            rows.append(row)


def run_heavy(server: LoggedServer, requests: int = HEAVY_REQUESTS, limit_ms: int = HEAVY_LIMIT_MS,
              seed: int = 40) -> dict[str, Any]:
    """``requests`` heavy solves at once with a ``/healthz`` prober; raw results."""
    rng = random.Random(seed)
    cards = deck(8, 8)
    bodies = [{"variant": "indian21", "rules": {"decks": 8, "ace": "wrap"}, "wild_rank": "7H",
               "hand": rng.sample(cards, 30), "time_limit_ms": limit_ms} for _ in range(requests)]
    answers: dict[str, dict[str, Any]] = {}
    errors: list[str] = []
    probes: list[float] = []
    probe_errors: list[str] = []
    done = threading.Event()

    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    shared = httpx.Client(timeout=30.0, limits=limits)
    prober_client = httpx.Client(timeout=5.0)

    def heavy(index: int, body: dict[str, Any]) -> None:
        request_id = f"heavy-{index}"
        started = time.perf_counter()
        try:
            response = shared.post(server.url + "/v1/solve", json=body,
                                   headers={"X-Request-ID": request_id})
            answers[request_id] = {"status": response.status_code,
                                   "client_ms": (time.perf_counter() - started) * 1e3,
                                   "retry_after": response.headers.get("retry-after")}
        except httpx.HTTPError as error:
            errors.append(f"{request_id}: {error!r}")

    def probe() -> None:
        while not done.is_set():
            started = time.perf_counter()
            try:
                status = prober_client.get(server.url + "/healthz").status_code
                if status == 200:
                    probes.append(time.perf_counter() - started)
                else:
                    probe_errors.append(f"HTTP {status}")
            except httpx.HTTPError as error:
                probe_errors.append(repr(error))
            time.sleep(PROBE_EVERY_S)

    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    threads = [threading.Thread(target=heavy, args=item, daemon=True) for item in enumerate(bodies)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    wall = time.perf_counter() - started
    done.set()
    prober.join(10)
    shared.close()
    prober_client.close()
    ordered = sorted(probes)
    statuses: dict[str, int] = {}
    for answer in answers.values():
        statuses[str(answer["status"])] = statuses.get(str(answer["status"]), 0) + 1
    return {
        "requests": requests, "limit_ms": limit_ms, "wall_s": wall, "answers": answers,
        "statuses": statuses, "connection_errors": len(errors), "errors": errors[:10],
        "unanswered": requests - len(answers) - len(errors),
        "bad_retry_after": sum(1 for a in answers.values() if a["status"] == 503
                               and not (a["retry_after"] or "").isdigit()),
        "healthz": {"probes": len(ordered), "errors": len(probe_errors),
                    "first_errors": probe_errors[:5],
                    "p50_ms": statistics.median(ordered) * 1e3 if ordered else None,
                    "p99_ms": percentile(ordered, 0.99) * 1e3 if ordered else None,
                    "max_ms": ordered[-1] * 1e3 if ordered else None},
    }


def _judge_hostile(rows: list[dict[str, Any]], on_server: dict[str, float]) -> None:
    for row in rows:
        row["server_ms"] = on_server.get(row["request_id"])
        bound = row["limit_ms"] + MARGIN_MS
        row["client_within"] = row["client_ms"] <= bound
        row["server_within"] = None if row["server_ms"] is None else row["server_ms"] <= bound
        row["overshoot_ms"] = max(row["client_ms"], row["server_ms"] or 0.0) - row["limit_ms"]


def _judge_heavy(heavy: dict[str, Any], on_server: dict[str, float]) -> None:
    server_times = [on_server[rid] for rid in heavy["answers"] if rid in on_server]
    client_times = [a["client_ms"] for a in heavy["answers"].values()]
    for request_id, answer in heavy["answers"].items():
        answer["server_ms"] = on_server.get(request_id)
    heavy["server_ms_max"] = max(server_times) if server_times else None
    heavy["server_ms_median"] = statistics.median(server_times) if server_times else None
    heavy["client_ms_max"] = max(client_times) if client_times else None
    heavy["server_over_limit"] = sum(1 for t in server_times
                                     if t > heavy["limit_ms"] + MARGIN_MS)
    heavy["missing_server_times"] = len(heavy["answers"]) - len(server_times)


def run_deadline(progress: Callable[[str], None] | None = None,
                 limits: tuple[int | None, ...] = LIMITS_MS,
                 heavy_requests: int = HEAVY_REQUESTS) -> dict[str, Any]:
    """The whole deadline suite against one 2-worker server; ``{"skipped": why}``
    when the API cannot run."""
    reason = api_unavailable()
    if reason is not None:
        return {"skipped": reason}
    server = LoggedServer()
    result: dict[str, Any] = {"workers": WORKERS, "margin_ms": MARGIN_MS}
    try:
        server.wait_ready(answers=4)  # both workers likely up
        hostile = run_hostile(server, limits, progress)
        if progress is not None:
            progress(f"deadline: {heavy_requests} concurrent heavy solves + /healthz prober")
        heavy = run_heavy(server, heavy_requests) if heavy_requests else None
        time.sleep(0.3)  # the last access-log lines
        on_server = server.server_ms()
        _judge_hostile(hostile, on_server)
        result["hostile"] = hostile
        if heavy is not None:
            _judge_heavy(heavy, on_server)
            result["heavy"] = heavy
        result["replaced_workers"] = server.replaced_workers()
    except RuntimeError as error:
        result["error"] = str(error)
    finally:
        result["clean_shutdown"] = server.stop(timeout_s=30.0)
        result["log_tail"] = server.output()[-1500:]
        server.close()
    return result
