"""Pure ASGI middleware: the request body size limit and the last-resort catch-all.

``BodyLimitMiddleware`` answers 413 when ``Content-Length`` announces too
many bytes, and otherwise reads the body itself (at most the limit, however
it is chunked) before the app sees it, so no handler ever receives an
oversized body.  ``CatchAllMiddleware`` turns an exception that escaped every
handler into a logged 503: the service never answers 500.
"""

from __future__ import annotations

import logging
import uuid

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

logger = logging.getLogger("api")


class BodyLimitMiddleware:
    """Reject request bodies larger than ``max_body_bytes`` with 413."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    def _too_large(self, size: str) -> JSONResponse:
        return JSONResponse(
            status_code=413,
            content={
                "detail": f"request body is {size} bytes; the limit is {self.max_body_bytes} "
                "(RUMMY_SOLVER_MAX_BODY_BYTES)"
            },
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = Headers(scope=scope).get("content-length")
        if declared is not None:
            try:
                declared_size = int(declared)
            except ValueError:
                declared_size = -1
            if declared_size < 0:
                response = JSONResponse(status_code=400, content={"detail": "invalid Content-Length header"})
                await response(scope, receive, send)
                return
            if declared_size > self.max_body_bytes:
                await self._too_large(str(declared_size))(scope, receive, send)
                return

        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending the whole body
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                await self._too_large(f"more than {self.max_body_bytes}")(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break

        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class CatchAllMiddleware:
    """Log any exception that escaped the app and answer 503 instead of 500."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        response_started = False

        async def tracking_send(message: Message) -> None:
            nonlocal response_started
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:
            reference = uuid.uuid4().hex[:12]
            logger.error(
                "unhandled error on %s %s (ref %s)",
                scope.get("method"),
                scope.get("path"),
                reference,
                exc_info=exc,
            )
            if response_started:
                return  # too late for a status code; the server closes the response
            response = JSONResponse(
                status_code=503,
                content={"detail": f"the service failed on this request; the error is logged as {reference}"},
            )
            await response(scope, receive, send)
