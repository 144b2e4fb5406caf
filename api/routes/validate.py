"""``POST /v1/validate``: check and score a declared arrangement."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.dispatch import answer, settings_of
from api.errors import RequestError
from api.routes.deps import ERROR_RESPONSES
from api.schemas import ValidateRequest, ValidateResponse, rules_overrides

router = APIRouter(prefix="/v1/validate", tags=["validate"])


@router.post("", operation_id="validate_hand", response_model=ValidateResponse,
             responses=ERROR_RESPONSES)
async def validate_hand(payload: ValidateRequest, request: Request) -> Response:
    """Report every problem with declared melds and deadwood, and their points."""
    settings = settings_of(request)
    total = sum(len(meld) for meld in payload.melds) + len(payload.deadwood)
    if total > settings.max_hand_cards:
        raise RequestError(
            ["body", "melds"],
            f"melds and deadwood hold {total} cards; at most {settings.max_hand_cards} are allowed",
            "hand_too_large",
        )
    if payload.hand is not None and len(payload.hand) > settings.max_hand_cards:
        raise RequestError(
            ["body", "hand"],
            f"hand has {len(payload.hand)} cards; at most {settings.max_hand_cards} are allowed",
            "hand_too_large",
        )
    return await answer(request, "validate", {
        "melds": [list(meld) for meld in payload.melds], "deadwood": list(payload.deadwood),
        "variant": payload.variant.value, "wild_rank": payload.wild_rank,
        "rules": rules_overrides(payload.rules),
        "hand": None if payload.hand is None else list(payload.hand),
    }, settings.request_budget_ms)
