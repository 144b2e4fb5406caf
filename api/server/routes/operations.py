"""A ``POST`` route per operation of ``api.shared.operations``, made from its declaration.

Each route reads the body (bounded by ``BodyGuardMiddleware``), decodes it
(``api.shared.decode``), checks it with ``Operation.parse`` -- the code that checks
a bulk or stream line -- and runs it on the worker's solver pool
(``api.server.dispatch``).  The OpenAPI document gets the operation's id, tag,
description, request and response schemas from the same declaration
(``request_body``; the request schemas are added by ``api.server.main``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.server.dispatch import answer, settings_of
from api.server.routes.deps import ERROR_RESPONSES
from api.shared.decode import decode
from api.shared.operations import OPERATIONS, Operation

Endpoint = Callable[[Request], Awaitable[Response]]


def request_body(operation: Operation) -> dict[str, Any]:
    """The OpenAPI ``requestBody`` of an operation: its request model, by reference."""
    return {"requestBody": {"required": True, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{operation.request.__name__}"}}}}}


def endpoint(operation: Operation) -> Endpoint:
    """The route function of ``operation``."""

    async def run(request: Request) -> Response:
        # Checked already when the request passed the quick lane (api.server.quick_lane).
        call = request.scope.get("state", {}).pop("call", None)
        if call is None or call.op != operation.name:
            call = operation.parse(decode(await request.body(), "body"), settings_of(request))
        return await answer(request, call)

    run.__name__ = operation.name
    run.__doc__ = operation.description
    return run


def build_router() -> APIRouter:
    """The routes of every operation."""
    router = APIRouter()
    for operation in OPERATIONS.values():
        router.add_api_route(
            operation.path, endpoint(operation), methods=["POST"], name=operation.name,
            operation_id=operation.name, tags=[operation.tag],
            description=operation.description, response_model=operation.response,
            responses=ERROR_RESPONSES, openapi_extra=request_body(operation))
    return router


router = build_router()
