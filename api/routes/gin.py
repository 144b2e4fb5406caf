"""``POST /v1/gin/knock`` and ``POST /v1/gin/score``: gin knock eligibility and scoring."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.dispatch import answer, check_cards, play_limit_ms, settings_of
from api.routes.deps import ERROR_RESPONSES
from api.schemas import rules_overrides
from api.schemas_play import GinScoreRequest, GinScoreResponse, KnockRequest, KnockResponse

router = APIRouter(prefix="/v1/gin", tags=["gin"])


@router.post("/knock", operation_id="gin_knock", response_model=KnockResponse,
             responses=ERROR_RESPONSES)
async def gin_knock(payload: KnockRequest, request: Request) -> Response:
    """Whether a gin hand may knock, go gin or big gin, and every discard that allows a knock."""
    settings = settings_of(request)
    check_cards(payload.hand, ["body", "hand"], settings)
    return await answer(request, "knock", {
        "hand": list(payload.hand), "rules": rules_overrides(payload.rules),
        "knock_limit": payload.knock_limit, "upcard": payload.upcard,
    }, play_limit_ms(payload.time_limit_ms, settings))


@router.post("/score", operation_id="gin_score", response_model=GinScoreResponse,
             responses=ERROR_RESPONSES)
async def gin_score(payload: GinScoreRequest, request: Request) -> Response:
    """Score a knock: the defender's best melds and layoffs, the knocker's best arrangement
    against them (minimax), the outcome and the points."""
    settings = settings_of(request)
    check_cards(payload.knocker, ["body", "knocker"], settings)
    check_cards(payload.defender, ["body", "defender"], settings)
    return await answer(request, "gin_score", {
        "knocker": list(payload.knocker), "defender": list(payload.defender),
        "rules": rules_overrides(payload.rules), "knock_limit": payload.knock_limit,
        "upcard": payload.upcard,
    }, play_limit_ms(payload.time_limit_ms, settings))
