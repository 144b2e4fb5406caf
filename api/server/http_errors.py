"""Errors as HTTP answers: ``{"detail": [{"type", "loc", "msg"}]}``, never a 500.

The items come from ``api.shared.errors`` (the one mapper); here they get the
``"body"`` prefix, a status and a bounded body, and the application's
exception handlers are installed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from api.shared.errors import (
    MAX_ERROR_BYTES,
    ErrorItem,
    RequestRejected,
    error_body,
    from_validation,
    item,
    whole_message,
)

BODY = ("body",)


def items_response(items: Sequence[ErrorItem], status_code: int = 422,
                   headers: dict[str, str] | None = None) -> Response:
    """An error answer listing ``items`` (already prefixed), never over
    ``MAX_ERROR_BYTES``."""
    shown = list(items)
    body = error_body(shown)
    while len(body) > MAX_ERROR_BYTES and len(shown) > 1:
        shown.pop()
        body = error_body(shown)
    return Response(body, status_code=status_code, media_type="application/json",
                    headers=headers)


def rejected_response(rejected: RequestRejected, status_code: int = 422) -> Response:
    """The answer to a request refused with ``rejected``'s items."""
    return items_response(rejected.prefixed(BODY), status_code)


def error_response(status_code: int, type_: str, msg: str, loc: Sequence[str | int] = BODY,
                   headers: dict[str, str] | None = None) -> Response:
    """An error answer with one item: ``msg`` is the service's own words, kept
    whole (up to ``MAX_MESSAGE_CHARS``); input it quotes is ``bounded`` by its caller."""
    return items_response([item(type_, loc, whole_message(msg))], status_code, headers)


async def _on_rejected(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestRejected)
    return rejected_response(exc)


async def _on_validation_error(request: Request, exc: Exception) -> Response:
    # Only routes that are not operations (path parameters) are validated by FastAPI.
    assert isinstance(exc, RequestValidationError)
    return items_response(from_validation(exc.errors()).prefixed(()))


async def _on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    headers: dict[str, Any] | None = dict(exc.headers) if exc.headers else None
    return error_response(exc.status_code, code, str(exc.detail),
                          ("path",) if code == "not_found" else ("method",), headers)


def install_exception_handlers(app: FastAPI) -> None:
    """Register the error mappings on ``app`` (every one in the one error shape)."""
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(RequestRejected, _on_rejected)
