"""``POST /v1/score/round``: points of a finished round for every player."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.dispatch import answer, check_cards, play_limit_ms, settings_of
from api.routes.deps import ERROR_RESPONSES
from api.schemas import rules_overrides
from api.schemas_play import RoundScoreRequest, RoundScoreResponse

router = APIRouter(prefix="/v1/score", tags=["scoring"])


@router.post("/round", operation_id="score_round", response_model=RoundScoreResponse,
             responses=ERROR_RESPONSES)
async def score_round(payload: RoundScoreRequest, request: Request) -> Response:
    """Round scoring by the variant's round_scoring rule: collect (basic), net (rummy500,
    rommy), indian (indian13, indian21), hand_penalty (contract, kalooki)."""
    settings = settings_of(request)
    players = []
    for i, player in enumerate(payload.players):
        check_cards(player.hand, ["body", "players", i, "hand"], settings)
        players.append({
            "hand": list(player.hand),
            "melded": None if player.melded is None else [list(g) for g in player.melded],
            "went_out": player.went_out,
            "dropped": None if player.dropped is None else player.dropped.value,
            "had_turn": player.had_turn,
            "rummy": player.rummy, "pile_penalties": player.pile_penalties,
        })
    return await answer(request, "round", {
        "players": players, "variant": payload.variant.value, "wild_rank": payload.wild_rank,
        "rules": rules_overrides(payload.rules),
    }, play_limit_ms(payload.time_limit_ms, settings))
