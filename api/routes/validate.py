"""``POST /v1/validate``: check and score a declared arrangement."""

from __future__ import annotations

from fastapi import APIRouter

from api import service
from api.routes.deps import ERROR_RESPONSES, SettingsDep
from api.schemas import ValidateRequest, ValidateResponse

router = APIRouter(prefix="/v1/validate", tags=["validate"])


@router.post("", operation_id="validate_hand", response_model=ValidateResponse, responses=ERROR_RESPONSES)
def validate_hand(payload: ValidateRequest, settings: SettingsDep) -> ValidateResponse:
    """Report every problem with declared melds and deadwood, and their points."""
    return service.validate_one(payload, settings)
