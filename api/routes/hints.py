"""``POST /v1/hints/discard|draw|pile`` and ``POST /v1/layoffs``: play hints.

The handlers are plain ``def``: FastAPI runs them in its threadpool.
"""

from __future__ import annotations

from fastapi import APIRouter

from api import play_service
from api.routes.deps import ERROR_RESPONSES, SettingsDep
from api.schemas_play import (
    DiscardHintRequest,
    DiscardHintResponse,
    DrawHintRequest,
    DrawHintResponse,
    LayoffsRequest,
    LayoffsResponse,
    PileHintRequest,
    PileHintResponse,
)

router = APIRouter(prefix="/v1", tags=["hints"])


@router.post("/hints/discard", operation_id="hint_discard", response_model=DiscardHintResponse,
             responses=ERROR_RESPONSES)
def hint_discard(payload: DiscardHintRequest, settings: SettingsDep) -> DiscardHintResponse:
    """Every distinct discard ranked by the optimum of the cards kept, ties grouped."""
    return play_service.discard(payload, settings)


@router.post("/hints/draw", operation_id="hint_draw", response_model=DrawHintResponse,
             responses=ERROR_RESPONSES)
def hint_draw(payload: DrawHintRequest, settings: SettingsDep) -> DrawHintResponse:
    """Take the discard-pile top or draw blind: the optimum with the top card against the
    exact expected optimum over the unseen cards."""
    return play_service.draw(payload, settings)


@router.post("/layoffs", operation_id="hint_layoffs", response_model=LayoffsResponse,
             responses=ERROR_RESPONSES)
def hint_layoffs(payload: LayoffsRequest, settings: SettingsDep) -> LayoffsResponse:
    """Which hand cards extend which table melds, and the best mix of new melds and layoffs."""
    return play_service.layoffs(payload, settings)


@router.post("/hints/pile", operation_id="hint_pile", response_model=PileHintResponse,
             responses=ERROR_RESPONSES)
def hint_pile(payload: PileHintRequest, settings: SettingsDep) -> PileHintResponse:
    """rummy500 / rommy: for each depth of the discard pile, whether taking down to it is
    legal, the ways to use the deepest card and the resulting net."""
    return play_service.pile(payload, settings)
