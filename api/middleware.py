"""Pure ASGI middleware: request context, body guard, last-resort catch-all.

* ``RequestContextMiddleware`` (outermost) stamps each request with its
  arrival time (deadlines count from it) and an id (``X-Request-ID`` echoed,
  or generated), sets that id for every log line, writes one JSON access-log
  line per request and records the Prometheus series.
* ``BodyGuardMiddleware`` answers 413 when a body is over the limit (by
  ``Content-Length`` or as it arrives), before any handler reads it (the
  operations decode and check what they read: ``api.decode``).
* ``CatchAllMiddleware`` turns an exception that escaped every handler into a
  logged 503: the service never answers 500.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from typing import Any

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api import metrics
from api.http_errors import error_response
from api.logs import REQUEST_ID

logger = logging.getLogger("api")
access_logger = logging.getLogger("api.access")

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")


class RequestContextMiddleware:
    """Arrival time, request id, access log and metrics for every request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        arrival = time.monotonic()
        given = Headers(scope=scope).get("x-request-id", "")
        request_id = given if _REQUEST_ID.match(given) else uuid.uuid4().hex
        state = scope.setdefault("state", {})
        state["arrival"] = arrival
        state["request_id"] = request_id
        token = REQUEST_ID.set(request_id)
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = MutableHeaders(scope=message)
                headers["x-request-id"] = request_id
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            self._record(scope, state, status, time.monotonic() - arrival)
            REQUEST_ID.reset(token)

    @staticmethod
    def _record(scope: Scope, state: dict[str, Any], status: int, seconds: float) -> None:
        route = getattr(scope.get("route"), "path", None) or "unmatched"
        method = scope.get("method", "")
        fields: dict[str, Any] = state.get("log_fields") or {}
        metrics.REQUESTS.labels(route, method, str(status)).inc()
        metrics.LATENCY.labels(route).observe(seconds)
        if "engine" in fields and "variant" in fields:
            metrics.SOLVES.labels(fields["variant"], fields["engine"],
                                  fields.get("status", "")).inc()
        if fields.get("deadline_hit") or fields.get("optimal") is False:
            metrics.DEADLINE_HITS.labels(route).inc()
        if route in ("/healthz", "/metrics"):
            return  # probes would drown the access log
        access_logger.info(
            "%s %s %s", method, scope.get("path", ""), status,
            extra={"route": route, "method": method, "status": status,
                   "ms": round(seconds * 1000.0, 3),
                   **{k: v for k, v in fields.items() if k in ("variant", "engine", "optimal")}},
        )


class BodyGuardMiddleware:
    """Reject oversized (413) and unparseable or too deeply nested JSON (422) bodies."""

    def __init__(self, app: ASGIApp, max_body_bytes: int,
                 streaming_paths: frozenset[str] = frozenset()) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.streaming_paths = streaming_paths  # read line by line by their route

    def _too_large(self, size: str) -> Response:
        return error_response(
            413, "body_too_large",
            f"request body is {size} bytes; the limit is {self.max_body_bytes} "
            "(RUMMY_SOLVER_MAX_BODY_BYTES)")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in self.streaming_paths:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        declared = headers.get("content-length")
        if declared is not None:
            try:
                declared_size = int(declared)
            except ValueError:
                declared_size = -1
            if declared_size < 0:
                await error_response(
                    422, "invalid_content_length",
                    "the Content-Length header is not a number of bytes",
                    ("header", "content-length"))(scope, receive, send)
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
            response = error_response(
                503, "service_error",
                f"the service failed on this request; the error is logged as {reference}")
            await response(scope, receive, send)
