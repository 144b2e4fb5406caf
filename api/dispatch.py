"""From a checked request to its answer: one job on the worker's solver pool.

Routes call ``answer(request, op, payload, limit_ms)``: the job's deadline is
the request's arrival (stamped by ``RequestContextMiddleware``) plus
``limit_ms``, its work budget what ``limit_ms`` buys; the answer's bytes are
returned as they are.  A client that goes away cancels its job.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from api.errors import RequestError, error_response
from api.pool import Overloaded, SolverPool
from api.settings import Settings


def settings_of(request: Request) -> Settings:
    """The settings ``create_app`` was built with."""
    settings = request.app.state.settings
    assert isinstance(settings, Settings)
    return settings


def play_limit_ms(time_limit_ms: int | None, settings: Settings) -> int:
    """A multi-solve request's time limit: its own (at most the request budget)
    or the budget itself."""
    if time_limit_ms is None:
        return settings.request_budget_ms
    if time_limit_ms > settings.request_budget_ms:
        raise RequestError(
            ["body", "time_limit_ms"],
            f"time_limit_ms is {time_limit_ms}; at most {settings.request_budget_ms} is allowed "
            "(RUMMY_SOLVER_REQUEST_BUDGET_MS)", "time_limit_too_large")
    return time_limit_ms


def check_cards(cards: list[Any] | None, loc: list[str | int], settings: Settings) -> None:
    """A hand-sized list within ``max_hand_cards``."""
    if cards is not None and len(cards) > settings.max_hand_cards:
        raise RequestError(
            loc, f"{loc[-1]} has {len(cards)} cards; at most {settings.max_hand_cards} are allowed",
            "hand_too_large")


async def _disconnect(request: Request) -> None:
    """Return once the client has gone away (any unread body is skipped)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def answer(request: Request, op: str, payload: dict[str, Any], limit_ms: int) -> Response:
    """Run ``op`` with ``payload`` on the solver pool within ``limit_ms`` of the
    request's arrival; 503 with ``Retry-After`` when it cannot start in time."""
    pool: SolverPool = request.app.state.pool
    state = request.scope.setdefault("state", {})
    arrival = state.get("arrival", time.monotonic())
    payload = {**payload}
    try:
        outcome = await pool.submit(op, payload, arrival + limit_ms / 1000.0, limit_ms,
                                    lambda: _disconnect(request), state.get("request_id", "-"))
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
