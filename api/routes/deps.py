"""Dependencies shared by the routers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request

from api.schemas import MessageResponse, ValidationErrorResponse
from api.settings import Settings


async def get_settings(request: Request) -> Settings:
    """The settings ``create_app`` was built with (async: no threadpool hop)."""
    settings = request.app.state.settings
    assert isinstance(settings, Settings)
    return settings


SettingsDep = Annotated[Settings, Depends(get_settings)]

# Error responses documented on every POST route.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    413: {"model": MessageResponse, "description": "request body over the size limit"},
    422: {
        "model": ValidationErrorResponse,
        "description": "malformed request, wrong types, or a domain error (unknown card, "
        "too many copies, bad knob, limits); type is a stable code",
    },
    503: {"model": MessageResponse, "description": "the solver failed (logged); not your input"},
}
