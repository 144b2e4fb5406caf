"""``GET /healthz`` (liveness), ``/readyz`` (a solver process answers a known
hand; Redis, when the rate limits are counted there), ``/version`` and
``/metrics`` (Prometheus)."""

from __future__ import annotations

import json
import time
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.server import metrics
from api.server.dispatch import answer, settings_of
from api.server.http_errors import error_response
from api.server.rate_limit import RateLimiter
from api.server.routes.deps import ERROR_RESPONSES, METRICS_RESPONSES, PROTOCOL_RESPONSES
from api.shared.operations import OPERATIONS
from api.shared.schemas import ErrorResponse, HealthResponse, ReadyResponse, VersionResponse
from solver.version import version_info

router = APIRouter(tags=["health"])

# The library's own doctest hand: known answer, solved in well under a millisecond.
_SELF_CHECK_HAND = ["AS", "2S", "3S", "7H", "7D", "7C", "KD", "QH", "4C", "9S"]
_SELF_CHECK_DEADWOOD = 33
_SELF_CHECK_TIME_LIMIT_MS = 1000


@router.get("/healthz", operation_id="healthz", response_model=HealthResponse,
            responses=PROTOCOL_RESPONSES)
async def healthz() -> HealthResponse:
    """Liveness: answers from the event loop without touching the solver."""
    return HealthResponse()


@router.get(
    "/readyz",
    operation_id="readyz",
    response_model=ReadyResponse,
    responses={**PROTOCOL_RESPONSES, 503: {"model": ErrorResponse, "description": (
        "the self-check failed, or Redis does not answer while RUMMY_SOLVER_RATE_LIMIT_FAIL "
        "is closed (every keyed request would be refused)"),
                     "content": {"application/json": {"example": {"detail": [{
                         "type": "not_ready", "loc": ["readyz"],
                         "msg": "self-check solve answered deadwood 40, expected 33"}]}}},
                     "headers": ERROR_RESPONSES[503]["headers"]}},
)
async def readyz(request: Request) -> Response:
    """Readiness: a solver process solves a small gin hand and the answer is checked;
    with API keys counted in Redis, Redis takes a count (``redis`` says whether)."""
    start = time.perf_counter()
    redis = await _redis_state(request)
    if redis == "unreachable" and request.app.state.limiter.fail == "closed":
        # Every keyed request would be refused: let the load balancer send them
        # to a replica that reaches Redis.  Under "open" this replica serves them
        # (uncounted), so it stays ready: an unready fleet for a counter that is
        # down would turn a counting outage into a full one.
        return error_response(
            503, "not_ready", "Redis (RUMMY_SOLVER_REDIS_URL) does not answer, and with "
            "RUMMY_SOLVER_RATE_LIMIT_FAIL=closed every keyed request is refused until it does",
            ("readyz",))
    call = OPERATIONS["solve_hand"].parse(
        {"variant": "gin", "hand": _SELF_CHECK_HAND, "time_limit_ms": _SELF_CHECK_TIME_LIMIT_MS},
        settings_of(request))
    reply = await answer(request, call, quick=False)  # the check is of a solver process
    problem = None
    if reply.status_code != 200:
        problem = f"self-check solve answered HTTP {reply.status_code}"
    else:
        deadwood = json.loads(bytes(reply.body))["deadwood_points"]
        if deadwood != _SELF_CHECK_DEADWOOD:
            problem = f"self-check solve answered deadwood {deadwood}, expected {_SELF_CHECK_DEADWOOD}"
    if problem is not None:
        return error_response(503, "not_ready", problem, ("readyz",))
    elapsed = round((time.perf_counter() - start) * 1000.0, 3)
    return Response(ReadyResponse(elapsed_ms=elapsed, redis=redis).model_dump_json(),
                    media_type="application/json")


async def _redis_state(request: Request) -> Literal["ok", "unreachable"] | None:
    """Whether the rate limits' Redis answers now; None without one."""
    limiter: RateLimiter | None = request.app.state.limiter
    if limiter is None or not limiter.shared:
        return None
    return "ok" if await limiter.probe() else "unreachable"


@router.get("/version", operation_id="version", response_model=VersionResponse,
            responses=PROTOCOL_RESPONSES)
async def version() -> VersionResponse:
    """The package, OR-Tools and Python versions (``rummy-solver --version`` prints the same)."""
    return VersionResponse(**version_info())


# HEAD answers what GET does, without the body: uptime monitors and some load
# balancers probe with HEAD, and a 405 there reads as "down".  Left out of the
# schema, which lists each operation once.
for _path, _endpoint in (("/healthz", healthz), ("/readyz", readyz), ("/version", version)):
    router.add_api_route(_path, _endpoint, methods=["HEAD"], include_in_schema=False)


@router.get("/metrics", operation_id="metrics", response_class=Response,
            responses={200: {"description": "Prometheus text exposition format",
                             "content": {"text/plain": {"example": "rummy_solver_requests_total"
                                                        "{method=\"POST\",route=\"/v1/solve\","
                                                        "status=\"200\"} 42.0\n"}}},
                       **METRICS_RESPONSES})
async def prometheus_metrics(request: Request) -> Response:
    """Prometheus series (every worker's, summed): requests, latency, solves, deadline hits,
    queue depth."""
    body, content_type = metrics.render(settings_of(request))
    return Response(body, media_type=content_type)
