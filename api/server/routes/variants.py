"""``GET /v1/variants`` and ``GET /v1/variants/{name}``: presets and their knobs."""

from __future__ import annotations

from fastapi import APIRouter

from api.server.http_errors import error_response
from api.server.routes.deps import ERROR_RESPONSES, KEY_RESPONSES, _error
from api.shared.errors import bounded
from api.shared.schemas import VariantInfo, VariantList
from solver import PRESETS
from solver.rules import KNOB_DOCS

router = APIRouter(prefix="/v1/variants", tags=["variants"])


def _info(name: str) -> VariantInfo:
    rules = PRESETS[name]
    return VariantInfo.model_validate({"name": name, "knobs": rules.to_dict(),
                                       "requirements": [r.to_dict() for r in rules.requirements]})


@router.get("", operation_id="list_variants", response_model=VariantList, responses=KEY_RESPONSES)
async def list_variants() -> VariantList:
    """Every rule preset with the value of each knob (its requirements too), plus what each
    knob means."""
    return VariantList(variants=[_info(name) for name in PRESETS], knob_docs=dict(KNOB_DOCS))


@router.get(
    "/{name}",
    operation_id="get_variant",
    response_model=VariantInfo,
    responses={404: _error("no preset of that name", "not_found",
                           "unknown variant 'poker'; choose one of basic, gin, ...", ["path", "name"]),
               422: ERROR_RESPONSES[422], **KEY_RESPONSES},
)
async def get_variant(name: str) -> VariantInfo:
    """One rule preset with the value of each knob."""
    if name not in PRESETS:
        return error_response(  # type: ignore[return-value]
            404, "not_found", f"unknown variant {bounded(name)!r}; choose one of {', '.join(PRESETS)}",
            ("path", "name"))
    return _info(name)
