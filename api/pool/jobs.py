"""What a solver process runs: one operation per job, answered as JSON bytes.

``run_job(op, args, deadline_at, budget_ms, cancelled, settings)`` is the
``api.pool.solver_pool`` job runner.  ``op`` names an operation of ``api.shared.operations``
and ``args`` holds its library arguments, already checked by the front end
(``Operation.parse``); the call runs under one ``solver.deadline.Deadline``
(the request's, counted from its arrival, with the work budget its time
limit buys) and the answer is the result's wire form plus ``elapsed_ms``.
One transport job serves the stream: ``stream_line`` (one raw line of
``/v1/solve/stream``), answered as ``api.shared.lines`` answers a line
(``rummy-solver bulk`` runs its chunks on a runner of its own,
``api.bulk.worker``).

The library's input errors become 422 in the one error shape (``loc`` under
``body``); anything else a logged 503.  Never 500.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from api.shared.errors import RequestRejected, solver_failure
from api.shared.lines import answer_line, encode
from api.shared.logs import REQUEST_ID
from api.shared.operations import OPERATIONS
from api.shared.settings import Settings
from solver.deadline import NODES_PER_MS, Deadline, Work
from solver.engines import cpsat as _cpsat  # noqa: F401  loaded up front: no deadline pays for it
from solver.gin import gin_deal
from solver.play.gin.advisor import MATCH_CELLS, hands_for, match_win_probability

hands_for(gin_deal())  # the advisor's gin tables, built once before any request
match_win_probability(0, 0, MATCH_CELLS)  # and its match-win table, every target's up to 250

logger = logging.getLogger("api.jobs")

REPLY_MARGIN_S = 0.03
"""The library stops this long before the request's deadline (at most a tenth
of the time the request had left, at least ``HOP_S``): writing the answer,
piping it to the worker and sending it must fit before the deadline + 100 ms
also when a busy machine makes each of those steps wait for a core."""
HOP_S = 0.005
"""The way back at least: writing the answer, pickling it through the pipe
and the worker's loop reading it took 3 ms (median; 9 ms at the 90th
percentile) on a two-core machine at a load of 9, so an answer the library
gives at the deadline itself arrives after it (the pool still sends what
arrives within ``api.pool.solver_pool.LATE_S`` of it)."""

Payload = dict[str, Any]
Answer = tuple[int, bytes, dict[str, Any]]


def dumps(data: dict[str, Any]) -> bytes:
    """An answer's body: compact JSON as the API renders every answer
    (``api.shared.lines.encode``)."""
    return encode(data).encode()


def error_body(items: list[dict[str, Any]]) -> bytes:
    """An error answer's body: ``{"detail": [items]}``."""
    return dumps({"detail": items})


def _log_fields(data: dict[str, Any]) -> dict[str, Any]:
    """What the access log and the metrics record of an answer (variant,
    engine, optimal; ``complete``: an advice or a review its deadline cut short
    is a deadline hit)."""
    return {key: data[key] for key in ("variant", "engine", "optimal", "status", "complete")
            if isinstance(data.get(key), str | bool)}


def run_job(op: str, payload: Payload, deadline_at: float, budget_ms: float,
            cancelled: Callable[[], bool], settings: Settings, request_id: str = "-") -> Answer:
    """Run one job (see the module docstring): ``(status, JSON body, log fields)``."""
    token = REQUEST_ID.set(request_id)
    try:
        margin = min(REPLY_MARGIN_S, max(HOP_S, (deadline_at - time.monotonic()) / 10))
        deadline = Deadline(deadline_at - margin, cancelled, Work(budget_ms * NODES_PER_MS))
        if op == "stream_line":
            data = answer_line(payload["line"], payload["number"], deadline, settings=settings,
                               op=payload.get("default_op", "solve_hand"))
            return 200, encode(data).encode(), {"ok": "result" in data}
        return _run(op, payload, deadline, settings)
    except Exception as exc:
        return 503, error_body([{"type": "solver_error", "loc": ["body"],
                                 "msg": solver_failure(exc, op)}]), {}
    finally:
        REQUEST_ID.reset(token)


def _run(op: str, args: Payload, deadline: Deadline, settings: Settings) -> Answer:
    started = time.perf_counter()
    try:
        data = OPERATIONS[op].execute(args, deadline, settings)
    except RequestRejected as exc:
        return 422, error_body(exc.prefixed(("body",))), {}
    data["elapsed_ms"] = round((time.perf_counter() - started) * 1000.0, 3)
    try:
        return 200, dumps(data), _log_fields(data)
    except (TypeError, ValueError) as exc:  # a result the wire format cannot carry is a bug
        return 503, error_body([{"type": "solver_error", "loc": ["body"],
                                 "msg": solver_failure(exc, f"serialising the answer of {op}")}]), {}


def warm_up(settings: Settings) -> None:
    """Run every operation's example requests once (``api.shared.examples``), briefly:
    a solver process's first call of a kind builds caches and tables without
    a deadline check, so a fresh process would answer its first requests late."""
    from api.shared.examples import REQUESTS

    for op, examples in REQUESTS.items():
        operation = OPERATIONS.get(op)
        if operation is None:
            continue
        for example in examples:
            try:
                call = operation.parse({**example, **({"time_limit_ms": 50} if operation.budget
                                                      != "fixed" else {})}, settings)
                operation.execute(call.args, Deadline.after_ms(50), settings)
            except Exception:  # an example the settings refuse, or a cut-short call: no matter
                continue
