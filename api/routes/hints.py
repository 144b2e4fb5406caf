"""``POST /v1/hints/discard|draw|pile`` and ``POST /v1/layoffs``: play hints."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.dispatch import answer, check_cards, play_limit_ms, settings_of
from api.routes.deps import ERROR_RESPONSES
from api.schemas import rules_overrides
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
async def hint_discard(payload: DiscardHintRequest, request: Request) -> Response:
    """Every distinct discard ranked by the optimum of the cards kept, ties grouped."""
    settings = settings_of(request)
    check_cards(payload.hand, ["body", "hand"], settings)
    return await answer(request, "hint_discard", {
        "hand": list(payload.hand), "variant": payload.variant.value,
        "wild_rank": payload.wild_rank, "rules": rules_overrides(payload.rules),
    }, play_limit_ms(payload.time_limit_ms, settings))


@router.post("/hints/draw", operation_id="hint_draw", response_model=DrawHintResponse,
             responses=ERROR_RESPONSES)
async def hint_draw(payload: DrawHintRequest, request: Request) -> Response:
    """Take the discard-pile top or draw blind: the optimum with the top card against the
    exact expected optimum over the unseen cards."""
    settings = settings_of(request)
    check_cards(payload.hand, ["body", "hand"], settings)
    return await answer(request, "hint_draw", {
        "hand": list(payload.hand), "discard_top": payload.discard_top,
        "variant": payload.variant.value,
        "seen": None if payload.seen is None else list(payload.seen),
        "wild_rank": payload.wild_rank, "rules": rules_overrides(payload.rules),
    }, play_limit_ms(payload.time_limit_ms, settings))


@router.post("/layoffs", operation_id="hint_layoffs", response_model=LayoffsResponse,
             responses=ERROR_RESPONSES)
async def hint_layoffs(payload: LayoffsRequest, request: Request) -> Response:
    """Which hand cards extend which table melds, and the best mix of new melds and layoffs."""
    settings = settings_of(request)
    check_cards(payload.hand, ["body", "hand"], settings)
    return await answer(request, "layoffs", {
        "hand": list(payload.hand), "table": [list(meld) for meld in payload.table],
        "variant": payload.variant.value, "wild_rank": payload.wild_rank,
        "rules": rules_overrides(payload.rules),
    }, play_limit_ms(payload.time_limit_ms, settings))


@router.post("/hints/pile", operation_id="hint_pile", response_model=PileHintResponse,
             responses=ERROR_RESPONSES)
async def hint_pile(payload: PileHintRequest, request: Request) -> Response:
    """For each depth of the discard pile (under the variant's pile_pickup rule: rummy500,
    rommy), whether taking down to it is legal, the ways to use the deepest card and the
    resulting net."""
    settings = settings_of(request)
    check_cards(payload.hand, ["body", "hand"], settings)
    return await answer(request, "pile", {
        "hand": list(payload.hand), "table": [list(meld) for meld in payload.table],
        "discard_pile": list(payload.discard_pile), "variant": payload.variant.value,
        "wild_rank": payload.wild_rank, "rules": rules_overrides(payload.rules),
    }, play_limit_ms(payload.time_limit_ms, settings))
