"""``POST /v1/score/round``: points of a finished round for every player.

The handler is plain ``def``: FastAPI runs it in its threadpool.
"""

from __future__ import annotations

from fastapi import APIRouter

from api import play_service
from api.routes.deps import ERROR_RESPONSES, SettingsDep
from api.schemas_play import RoundScoreRequest, RoundScoreResponse

router = APIRouter(prefix="/v1/score", tags=["scoring"])


@router.post("/round", operation_id="score_round", response_model=RoundScoreResponse,
             responses=ERROR_RESPONSES)
def score_round(payload: RoundScoreRequest, settings: SettingsDep) -> RoundScoreResponse:
    """Round scoring for basic, rummy500, rommy, indian13 and indian21 (RULES.md section 6)."""
    return play_service.round_score(payload, settings)
