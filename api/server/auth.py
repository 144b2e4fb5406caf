"""``ApiKeyMiddleware``: no ``/v1`` request without a known key, and each key
within its rate.

Only when keys are configured (``api.server.keys``).  A ``/v1`` request without a
key, or with one the service does not know, gets 401 ``unauthorized`` (with
``WWW-Authenticate: Bearer``); one over its key's rate gets 429
``rate_limited`` with ``Retry-After`` (``api.server.rate_limit``).  Both before the
body is read.  ``/healthz``, ``/readyz``, ``/version``, the documentation and
the playground page stay open, and so does ``/metrics`` unless
``RUMMY_SOLVER_METRICS_NEED_KEY``; CORS preflights (``OPTIONS``) carry no key
and pass.  An admitted request's key id goes to ``scope["state"]["key_id"]``:
the fair share of the solvers is then per key, and the access log names it.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from api.server.http_errors import error_response
from api.server.keys import KeyRing
from api.server.middleware import header
from api.server.rate_limit import RateLimiter


def presented_key(scope: Scope) -> str | None:
    """The key a request carries (``Authorization: Bearer`` or ``X-API-Key``)."""
    authorization = header(scope, b"authorization")
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip()
    key = header(scope, b"x-api-key")
    return key.strip() if key and key.strip() else None


class ApiKeyMiddleware:
    """See the module docstring."""

    def __init__(self, app: ASGIApp, keys: KeyRing, limiter: RateLimiter,
                 metrics_need_key: bool = False) -> None:
        self.app = app
        self.keys = keys
        self.limiter = limiter
        self.metrics_need_key = metrics_need_key

    def _guarded(self, scope: Scope) -> bool:
        path: str = scope.get("path", "")
        if scope.get("method") == "OPTIONS":
            return False
        if scope.get("state", {}).get("lane"):
            return False  # admitted by the playground's lane (api.server.playground_lane)
        return path.startswith("/v1/") or (self.metrics_need_key and path == "/metrics")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self.keys or not self._guarded(scope):
            await self.app(scope, receive, send)
            return
        presented = presented_key(scope)
        key = self.keys.find(presented) if presented is not None else None
        state = scope.setdefault("state", {})
        if key is None:
            state["log_fields"] = {"key": "unknown" if presented else "none"}
            await error_response(
                401, "unauthorized",
                "an API key is required: send it as 'Authorization: Bearer KEY' or 'X-API-Key: "
                "KEY'" if presented is None else "this API key is not known",
                ("header", "authorization"), headers={"WWW-Authenticate": "Bearer"},
            )(scope, receive, send)
            return
        state["key_id"] = key.id
        wait = await self.limiter.allow(key.id, key.rate)
        if wait is not None:
            state["log_fields"] = {"key": key.id}
            await error_response(
                429, "rate_limited",
                f"this API key is over its rate limit ({key.rate}); retry in {wait} s",
                ("header", "authorization"), headers={"Retry-After": str(wait)},
            )(scope, receive, send)
            return
        await self.app(scope, receive, send)
