"""``GET /healthz`` (liveness) and ``GET /readyz`` (a small solve succeeds)."""

from __future__ import annotations

import time

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from api import service
from api.errors import logger
from api.schemas import HealthResponse, NotReadyResponse, ReadyResponse

router = APIRouter(tags=["health"])

# The library's own doctest hand: known answer, solved in well under a millisecond.
_SELF_CHECK_HAND = ("AS", "2S", "3S", "7H", "7D", "7C", "KD", "QH", "4C", "9S")
_SELF_CHECK_DEADWOOD = 33
_SELF_CHECK_TIME_LIMIT_MS = 1000


@router.get("/healthz", operation_id="healthz", response_model=HealthResponse)
async def healthz() -> HealthResponse:
    """Liveness: answers from the event loop without touching the solver."""
    return HealthResponse()


@router.get(
    "/readyz",
    operation_id="readyz",
    response_model=ReadyResponse,
    responses={503: {"model": NotReadyResponse, "description": "the self-check failed"}},
)
def readyz() -> ReadyResponse | JSONResponse:
    """Readiness: solve a small gin hand (in the threadpool) and check the answer."""
    start = time.perf_counter()
    try:
        solution = service.solve(list(_SELF_CHECK_HAND), "gin", time_limit_ms=_SELF_CHECK_TIME_LIMIT_MS)
        problem = (
            None
            if solution.deadwood_points == _SELF_CHECK_DEADWOOD
            else f"self-check solve answered deadwood {solution.deadwood_points}, "
            f"expected {_SELF_CHECK_DEADWOOD}"
        )
    except Exception as exc:
        logger.error("readiness self-check raised", exc_info=exc)
        problem = f"self-check solve raised {type(exc).__name__}"
    if problem is not None:
        return JSONResponse(status_code=503, content=NotReadyResponse(detail=problem).model_dump())
    return ReadyResponse(elapsed_ms=round((time.perf_counter() - start) * 1000.0, 3))
