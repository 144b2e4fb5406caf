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
from fastapi.responses import RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

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
    message = str(exc.detail)
    if code == "not_found" and message == "Not Found":  # no route: say which path
        path = request.url.path
        stripped = path.rstrip("/")
        if _served(request, stripped):
            # asked with a trailing slash: 307 (the method and body kept) to the path
            # without it, by a relative Location, which keeps the scheme the client
            # used (Starlette's absolute one named http behind a TLS proxy)
            query = request.url.query
            return RedirectResponse(stripped + (f"?{query}" if query else ""), 307)
        message = _no_route(path)
    return error_response(exc.status_code, code, message,
                          ("path",) if code == "not_found" else ("method",), headers)


def _served(request: Request, path: str) -> bool:
    """Whether a route of the app serves ``path`` (another path than the request's)
    for the request's method."""
    if not path or path == request.url.path or len(path) > 1000:
        return False
    scope = {**request.scope, "path": path}
    return any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes)


def _no_route(path: str) -> str:
    """The message of a path no route serves (a long one cut).

    >>> _no_route("/v1/solv")
    "no route serves '/v1/solv'"
    """
    return f"no route serves {path if len(path) <= 120 else path[:117] + '...'!r}"


def install_exception_handlers(app: FastAPI) -> None:
    """Register the error mappings on ``app`` (every one in the one error shape)."""
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(RequestRejected, _on_rejected)
