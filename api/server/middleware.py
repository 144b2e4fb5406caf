"""Pure ASGI middleware: request context, body guard, last-resort catch-all.

* ``RequestContextMiddleware`` (outermost) stamps each request with its
  arrival time (deadlines count from it) and an id (``X-Request-ID`` echoed,
  or a random one: ``RandomIds``), sets that id for every log line, writes the JSON access log
  (bounded: ``api.server.access_log``), records the Prometheus series, and ends
  keep-alive connections older than ``RUMMY_SOLVER_CONNECTION_MAX_S``
  (``api.server.keepalive``).
* ``BodyGuardMiddleware`` answers 415 when a body is labelled as neither
  JSON nor (a stream) NDJSON, or as compressed (``api.server.media_types``), 413 when it is
  over the limit (by ``Content-Length`` or as it arrives) and 408 when it has
  not arrived within ``RUMMY_SOLVER_BODY_TIMEOUT_S`` of the request, before
  any handler reads it (the operations decode and check what they read:
  ``api.shared.decode``).
* ``CatchAllMiddleware`` turns an exception that escaped every handler into a
  logged 503, and the server's cancellation of a request at the end of its
  drain time into a 503: the service never answers 500.  Every 503 that
  passes it says when to retry (``Retry-After``, ``RETRY_AFTER_S`` when the
  answer gives no wait of its own), as ``openapi.json`` declares.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
import uuid
from collections.abc import Mapping
from typing import Any

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.server import metrics
from api.server.access_log import AccessLog
from api.server.http_errors import error_response
from api.server.keepalive import ConnectionAges
from api.server.media_types import BodyType, encoding_refusal, refusal
from api.shared.logs import REQUEST_ID

logger = logging.getLogger("api")

_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")


def header(scope: Scope, name: bytes) -> str | None:
    """The first value of header ``name`` (lower case), or None (cheaper than
    building a ``Headers`` for one look-up)."""
    for key, value in scope.get("headers", ()):
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None



METRIC_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""The methods a request counter names; any other (PURGE, PROPFIND ... the
HTTP parser lets through) counts as ``other``, so clients cannot grow the
series."""


def metric_method(method: str) -> str:
    """The ``method`` label of a request's metrics.

    >>> metric_method("POST"), metric_method("PROPFIND")
    ('POST', 'other')
    """
    return method if method in METRIC_METHODS else "other"

class RandomIds:
    """Request ids of 128 random bits in hex, drawn from ``os.urandom`` a batch
    at a time.

    Random, not a counter: an id a client sees says nothing of how many
    requests the service answers.  One ``os.urandom`` call per batch because
    a call per request (a system call, a few microseconds; ``uuid4`` more)
    would cost more than a quick gin solve.
    """

    ID_BYTES = 16
    BATCH = 256

    def __init__(self) -> None:
        self.pool = b""
        self.offset = 0
        # A child forked with a half-used batch would repeat its parent's ids.
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self.pool, self.offset = b"", 0

    def next(self) -> str:
        """A fresh id: 32 hex digits."""
        if self.offset >= len(self.pool):
            self.pool, self.offset = os.urandom(self.ID_BYTES * self.BATCH), 0
        start = self.offset
        self.offset += self.ID_BYTES
        return self.pool[start:self.offset].hex()


_IDS = RandomIds()  # one per process: one fork hook, one batch for every app


class RequestContextMiddleware:
    """Arrival time, request id, access log, metrics and connection ages."""

    def __init__(self, app: ASGIApp, access_log_per_s: int = 0,
                 connection_max_s: float = 0.0) -> None:
        self.app = app
        self.access_log = AccessLog(access_log_per_s)
        self.ages = ConnectionAges(connection_max_s)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        arrival = time.monotonic()
        given = header(scope, b"x-request-id")
        request_id = given if given and _REQUEST_ID.match(given) else _IDS.next()
        state = scope.setdefault("state", {})
        state["arrival"] = arrival
        state["request_id"] = request_id
        token = REQUEST_ID.set(request_id)
        status = 500

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [*message.get("headers", ()), (b"x-request-id", request_id.encode())]
                if self.ages.expired(scope.get("client"), arrival):
                    headers.append((b"connection", b"close"))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            self._record(scope, state, status, arrival)
            REQUEST_ID.reset(token)

    def _record(self, scope: Scope, state: dict[str, Any], status: int, arrival: float) -> None:
        now = time.monotonic()
        seconds = now - arrival
        route = getattr(scope.get("route"), "path", None) or state.get("route") or "unmatched"
        method = scope.get("method", "")
        fields: dict[str, Any] = state.get("log_fields") or {}
        metrics.REQUESTS.labels(route, metric_method(method), str(status)).inc()
        metrics.LATENCY.labels(route).observe(seconds)
        if "engine" in fields and "variant" in fields:
            metrics.SOLVES.labels(fields["variant"], fields["engine"],
                                  fields.get("status", "")).inc()
        if (fields.get("deadline_hit") or fields.get("optimal") is False
                or fields.get("complete") is False):
            metrics.DEADLINE_HITS.labels(route).inc()
        if route in ("/healthz", "/metrics"):
            return  # probes would drown the access log
        logged = {k: v for k, v in fields.items() if k in ("variant", "engine", "optimal", "key")}
        if state.get("key_id"):
            logged["key"] = state["key_id"]  # the key's id (api.server.keys), never the key
        self.access_log.write(now, method, scope.get("path", ""), route, status,
                              {"ms": round(seconds * 1000.0, 3), **logged})


class BodyGuardMiddleware:
    """Reject bodies of another media type (415), oversized (413) or late (408) ones."""

    def __init__(self, app: ASGIApp, max_body_bytes: int,
                 streaming_paths: frozenset[str] = frozenset(), body_timeout_s: float = 30.0,
                 body_types: Mapping[str, BodyType] | None = None) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.streaming_paths = streaming_paths  # read line by line by their route
        self.body_timeout_s = body_timeout_s
        self.body_types = dict(body_types or {})  # path -> what a POST body there may be

    def _too_large(self, size: str) -> Response:
        return error_response(
            413, "body_too_large",
            f"request body is {size} bytes; the limit is {self.max_body_bytes} "
            "(RUMMY_SOLVER_MAX_BODY_BYTES)")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        accepted = self.body_types.get(scope.get("path", ""))
        if accepted is not None and scope.get("method") == "POST":
            refused = refusal(header(scope, b"content-type"), accepted)
            if refused is not None:
                await error_response(415, "unsupported_media_type", refused,
                                     ("header", "content-type"))(scope, receive, send)
                return
            refused = encoding_refusal(header(scope, b"content-encoding"))
            if refused is not None:
                await error_response(415, "unsupported_media_type", refused,
                                     ("header", "content-encoding"))(scope, receive, send)
                return
        if scope.get("path") in self.streaming_paths:
            await self.app(scope, receive, send)
            return
        declared = header(scope, b"content-length")
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
        arrival = scope.get("state", {}).get("arrival", time.monotonic())
        while True:
            try:
                async with asyncio.timeout_at(self._loop_time(arrival + self.body_timeout_s)):
                    message = await receive()
            except TimeoutError:
                await error_response(
                    408, "body_timeout",
                    f"the request body did not arrive within {self.body_timeout_s:g} s "
                    "(RUMMY_SOLVER_BODY_TIMEOUT_S)",
                    headers={"Connection": "close"})(scope, receive, send)
                return
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

    @staticmethod
    def _loop_time(monotonic_at: float) -> float:
        """A ``time.monotonic()`` instant on the running loop's clock (uvloop's differs)."""
        loop = asyncio.get_running_loop()
        return loop.time() + (monotonic_at - time.monotonic())


RETRY_AFTER_S = 1
"""``Retry-After`` of a 503 that gives no wait of its own (the solver or the
service failed on the request, the drain is over): a client retries in a
second, as after any 503, instead of guessing a backoff."""


def with_retry_after(message: Message) -> Message:
    """A response's start ``message`` with ``Retry-After`` when it is a 503
    without one (see ``RETRY_AFTER_S``)."""
    headers = list(message.get("headers", ()))
    if message["status"] != 503 or any(name.lower() == b"retry-after" for name, _ in headers):
        return message
    return {**message, "headers": [*headers, (b"retry-after", str(RETRY_AFTER_S).encode())]}


class CatchAllMiddleware:
    """Log any exception that escaped the app and answer 503 instead of 500;
    every 503 with ``Retry-After`` (``with_retry_after``)."""

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
                message = with_retry_after(message)
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
            await response(scope, receive, tracking_send)
        except asyncio.CancelledError:
            # Only the server cancels a request: its drain time (SIGTERM) is
            # over.  The client still hears a 503 it may retry elsewhere, not
            # the server's plain-text 500; the request's task ends here.
            if not response_started:
                await error_response(
                    503, "unavailable", "the service is shutting down and its drain time "
                    "(RUMMY_SOLVER_DRAIN_S) is over; retry",
                )(scope, receive, tracking_send)
