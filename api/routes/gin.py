"""``POST /v1/gin/knock`` and ``POST /v1/gin/score``: gin knock eligibility and scoring.

The handlers are plain ``def``: FastAPI runs them in its threadpool.
"""

from __future__ import annotations

from fastapi import APIRouter

from api import play_service
from api.routes.deps import ERROR_RESPONSES, SettingsDep
from api.schemas_play import GinScoreRequest, GinScoreResponse, KnockRequest, KnockResponse

router = APIRouter(prefix="/v1/gin", tags=["gin"])


@router.post("/knock", operation_id="gin_knock", response_model=KnockResponse,
             responses=ERROR_RESPONSES)
def gin_knock(payload: KnockRequest, settings: SettingsDep) -> KnockResponse:
    """Whether a gin hand may knock, go gin or big gin, and every discard that allows a knock."""
    return play_service.knock(payload, settings)


@router.post("/score", operation_id="gin_score", response_model=GinScoreResponse,
             responses=ERROR_RESPONSES)
def gin_score(payload: GinScoreRequest, settings: SettingsDep) -> GinScoreResponse:
    """Score a knock: the defender's best melds and layoffs, the knocker's best arrangement
    against them (minimax), the outcome and the points."""
    return play_service.score(payload, settings)
