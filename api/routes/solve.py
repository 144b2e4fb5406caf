"""``POST /v1/solve`` and ``POST /v1/solve/batch``: optimal melds for hands."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.batch import check_solve_limits
from api.dispatch import answer, play_limit_ms, settings_of
from api.errors import RequestError
from api.routes.deps import ERROR_RESPONSES
from api.schemas import BatchRequest, BatchResponse, SolveRequest, SolveResponse, rules_overrides

router = APIRouter(prefix="/v1/solve", tags=["solve"])


@router.post("", operation_id="solve_hand", response_model=SolveResponse, responses=ERROR_RESPONSES)
async def solve_hand(payload: SolveRequest, request: Request) -> Response:
    """Split a hand into melds and deadwood optimally under a variant's rules."""
    limit_ms = check_solve_limits(payload, settings_of(request))
    return await answer(request, "solve", {
        "hand": list(payload.hand), "variant": payload.variant.value,
        "wild_rank": payload.wild_rank, "discard": payload.discard,
        "rules": rules_overrides(payload.rules), "engine": payload.engine.value,
    }, limit_ms)


@router.post("/batch", operation_id="solve_batch", response_model=BatchResponse,
             responses=ERROR_RESPONSES)
async def solve_batch(payload: BatchRequest, request: Request) -> Response:
    """Solve many hands in one call; each slot holds a solution or an error."""
    settings = settings_of(request)
    if len(payload.requests) > settings.max_batch:
        raise RequestError(
            ["body", "requests"],
            f"batch has {len(payload.requests)} requests; at most {settings.max_batch} are allowed",
            "batch_too_large",
        )
    return await answer(request, "batch", {"requests": payload.requests},
                        play_limit_ms(payload.time_limit_ms, settings))
