"""``GET /v1/variants`` and ``GET /v1/variants/{name}``: presets and their knobs."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException

from api.schemas import MessageResponse, ValidationErrorResponse, VariantInfo, VariantList
from solver import PRESETS
from solver.rules import KNOB_DOCS

router = APIRouter(prefix="/v1/variants", tags=["variants"])


def _info(name: str) -> VariantInfo:
    return VariantInfo(name=name, knobs=PRESETS[name].to_dict())


@router.get("", operation_id="list_variants", response_model=VariantList)
async def list_variants() -> VariantList:
    """Every rule preset with the value of each knob, plus what each knob means."""
    return VariantList(variants=[_info(name) for name in PRESETS], knob_docs=dict(KNOB_DOCS))


@router.get(
    "/{name}",
    operation_id="get_variant",
    response_model=VariantInfo,
    responses={
        404: {"model": MessageResponse, "description": "no preset of that name"},
        422: {"model": ValidationErrorResponse, "description": "malformed request"},
    },
)
async def get_variant(name: str) -> VariantInfo:
    """One rule preset with the value of each knob."""
    if name not in PRESETS:
        raise HTTPException(
            status_code=404,
            detail=f"unknown variant {name!r}; choose one of {', '.join(PRESETS)}",
        )
    return _info(name)
