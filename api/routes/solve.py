"""``POST /v1/solve`` and ``POST /v1/solve/batch``: optimal melds for hands.

The handlers are plain ``def``: FastAPI runs them in its threadpool, so a
long solve never blocks the event loop.
"""

from __future__ import annotations

import time

from fastapi import APIRouter

from api import service
from api.routes.deps import ERROR_RESPONSES, SettingsDep
from api.schemas import (
    BatchRequest,
    BatchResponse,
    SolveRequest,
    SolveResponse,
)

router = APIRouter(prefix="/v1/solve", tags=["solve"])


@router.post("", operation_id="solve_hand", response_model=SolveResponse, responses=ERROR_RESPONSES)
def solve_hand(payload: SolveRequest, settings: SettingsDep) -> SolveResponse:
    """Split a hand into melds and deadwood optimally under a variant's rules."""
    return service.solve_one(payload, settings)


@router.post("/batch", operation_id="solve_batch", response_model=BatchResponse, responses=ERROR_RESPONSES)
def solve_batch(payload: BatchRequest, settings: SettingsDep) -> BatchResponse:
    """Solve many hands in one call; each slot holds a solution or an error."""
    start = time.perf_counter()
    results = service.solve_batch_items(payload.requests, settings)
    elapsed_ms = round((time.perf_counter() - start) * 1000.0, 3)
    return BatchResponse(results=results, elapsed_ms=elapsed_ms)
