"""From a checked request to its answer: on the event loop when it costs
microseconds, else one job on the worker's solver pool.

Routes call ``answer(request, call)``.  A call whose operation has a quick
path (``Operation.quick``: a gin or basic solve) is answered at once, with no
process hop: the hop alone costs more than the solve.  Any other call becomes
a job whose deadline is the request's arrival (stamped by
``RequestContextMiddleware``) plus the call's time limit, its work budget what
that limit buys, queued under its client (``client_of``: the API key when
keys are in use, else the connection) for a fair share of the solvers.  A
client that goes away cancels its job.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from starlette.types import Scope

from api.pool.service_times import kind_of
from api.pool.solver_pool import Overloaded, SolverPool
from api.server.http_errors import error_response
from api.shared.deprecation import deprecation_headers
from api.shared.lines import encode
from api.shared.operations import OPERATIONS, Call
from api.shared.settings import Settings


def settings_of(request: Request) -> Settings:
    """The settings ``create_app`` was built with."""
    settings = request.app.state.settings
    assert isinstance(settings, Settings)
    return settings


def client_of(scope: Scope) -> str:
    """Whose request this is, for the fair share: the API key's id
    (``api.server.keys``), else the connection's address and port."""
    state = scope.get("state") or {}
    key_id = state.get("key_id")
    if key_id:
        return f"key:{key_id}"
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else "-"


async def _disconnect(request: Request) -> None:
    """Return once the client has gone away (any unread body is skipped)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def quick_answer(call: Call) -> tuple[bytes, dict[str, Any]] | None:
    """The answer of a call the operation's quick path covers (JSON bytes and
    access-log fields), or None."""
    quick = OPERATIONS[call.op].quick
    if quick is None:
        return None
    started = time.perf_counter()
    result = quick(call.args)
    if result is None:
        return None
    data: dict[str, Any] = result if isinstance(result, dict) else result.to_dict()
    data["elapsed_ms"] = round((time.perf_counter() - started) * 1000.0, 3)
    logged = {key: data[key] for key in ("variant", "engine", "optimal", "status")
              if isinstance(data.get(key), str | bool)}
    return encode(data).encode(), logged


async def answer(request: Request, call: Call, quick: bool = True) -> Response:
    """The answer to ``call``, within its time limit of the request's arrival;
    503 with ``Retry-After`` when it cannot start in time.  ``quick=False``:
    on a solver process even when the quick path covers it."""
    state = request.scope.setdefault("state", {})
    deprecation = deprecation_headers(call.deprecated)
    answered = quick_answer(call) if quick else None
    if answered is not None:
        state["log_fields"] = answered[1]
        return Response(answered[0], media_type="application/json", headers=deprecation)
    pool: SolverPool = request.app.state.pool
    arrival = state.get("arrival", time.monotonic())
    try:
        outcome = await pool.submit(call.op, call.args, arrival + call.limit_ms / 1000.0,
                                    call.limit_ms, lambda: _disconnect(request),
                                    state.get("request_id", "-"), client=client_of(request.scope),
                                    kind=kind_of(call.op, call.args))
    except Overloaded as exc:
        state["log_fields"] = {"deadline_hit": True, "shed": True}
        return error_response(503, "overloaded", f"{exc.reason}; retry in {exc.retry_after_s} s",
                              headers={"Retry-After": str(exc.retry_after_s), **deprecation})
    state["log_fields"] = outcome.log
    headers = dict(deprecation)
    if "retry_after" in outcome.log:
        headers["Retry-After"] = str(outcome.log["retry_after"])
    return Response(outcome.body, status_code=outcome.status, media_type="application/json",
                    headers=headers)


def warm_up(settings: Settings) -> None:
    """Check every example request and answer the quick ones (``api.shared.examples``)
    once, at start: the first of each builds validators and the quick path's
    tables (tens of milliseconds), which would otherwise fall on a request."""
    from api.shared.errors import RequestRejected
    from api.shared.examples import REQUESTS

    for op, examples in REQUESTS.items():
        operation = OPERATIONS.get(op)
        for example in examples if operation is not None else ():
            try:
                quick_answer(operation.parse(example, settings))  # type: ignore[union-attr]
            except RequestRejected:
                continue
