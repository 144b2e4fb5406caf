"""From a checked request to its answer: one job on the worker's solver pool.

Routes call ``answer(request, call)``: the job's deadline is the request's
arrival (stamped by ``RequestContextMiddleware``) plus the call's time limit,
its work budget what that limit buys; the answer's bytes are returned as
they are.  A client that goes away cancels its job.
"""

from __future__ import annotations

import time

from fastapi import Request
from fastapi.responses import Response

from api.http_errors import error_response
from api.operations import Call
from api.pool import Overloaded, SolverPool
from api.settings import Settings


def settings_of(request: Request) -> Settings:
    """The settings ``create_app`` was built with."""
    settings = request.app.state.settings
    assert isinstance(settings, Settings)
    return settings


async def _disconnect(request: Request) -> None:
    """Return once the client has gone away (any unread body is skipped)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def answer(request: Request, call: Call) -> Response:
    """Run ``call`` on the solver pool within its time limit of the request's
    arrival; 503 with ``Retry-After`` when it cannot start in time."""
    pool: SolverPool = request.app.state.pool
    state = request.scope.setdefault("state", {})
    arrival = state.get("arrival", time.monotonic())
    try:
        outcome = await pool.submit(call.op, call.args, arrival + call.limit_ms / 1000.0,
                                    call.limit_ms, lambda: _disconnect(request),
                                    state.get("request_id", "-"))
    except Overloaded as exc:
        state["log_fields"] = {"deadline_hit": True}
        return error_response(503, "overloaded", f"{exc.reason}; retry in {exc.retry_after_s} s",
                              headers={"Retry-After": str(exc.retry_after_s)})
    state["log_fields"] = outcome.log
    headers = None
    if "retry_after" in outcome.log:
        headers = {"Retry-After": str(outcome.log["retry_after"])}
    return Response(outcome.body, status_code=outcome.status, media_type="application/json",
                    headers=headers)
