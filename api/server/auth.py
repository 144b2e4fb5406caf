"""``ApiKeyMiddleware``: no ``/v1`` request without a known key, each key
within its rate, and a bound on guessing keys.

Only when keys are configured (``api.server.keys``).  A ``/v1`` request without a
key, or with one the service does not know, gets 401 ``unauthorized`` (with
``WWW-Authenticate: Bearer``); one over its key's rate gets 429
``rate_limited`` with ``Retry-After`` (``api.server.rate_limit``).

Unknown keys are counted per client address (``failure_bucket``: the
address, an IPv6 client's /64 network): past ``RUMMY_SOLVER_AUTH_FAILURE_LIMIT``
every request carrying a key from there gets 429 ``too_many_failed_keys``
with ``Retry-After``, whether its key is right or wrong, so a right guess
answers the same as a wrong one and guessing goes no faster than the limit.
Only that address waits: a key holder elsewhere is never refused for
someone else's guesses.  Nor is a key holder at that address whose key was
admitted from it within the last day or two (marked in the counter under
the key's id, ``ADMITTED_DAY_S``): clients behind one proxy that is not in
``FORWARDED_ALLOW_IPS`` share an address, and one of them must not lock
every other out by sending ten wrong keys.  A guesser there learns nothing
of keys never used from its address; of the keys used from it, a right
guess then passes (the price of keeping them served; list the proxy and
each client has its own count).  A blocked request costs the same whether
its key is known or not (two calls to the counter either way).  An
unknown key is counted and checked against the limit in one step, so
guesses sent at once get no more 401 answers than the limit.  A
request without any key guesses nothing and is not counted.  While Redis
is away each worker counts the unknown keys in its own memory
(``RateLimiter``'s ``local``): the bound holds through an outage.

While the counter (Redis) does not answer, ``RUMMY_SOLVER_RATE_LIMIT_FAIL``
applies: requests go on uncounted (open), or get 503
``rate_limit_unavailable`` with ``Retry-After`` (closed).  All of this before
the body is read.  ``/healthz``, ``/readyz``, ``/version``, the documentation
and the playground page stay open, and so does ``/metrics`` unless
``RUMMY_SOLVER_METRICS_NEED_KEY`` (then a right key is not counted or
checked against Redis: a scrape must read Redis's state while Redis is
away; a wrong one is counted as any guess is); CORS preflights (``OPTIONS``) carry no key
and pass.  An admitted request's key id goes to ``scope["state"]["key_id"]``:
the fair share of the solvers is then per key, and the access log names it.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict

from limits import RateLimitItem
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from api.server.http_errors import error_response
from api.server.keys import KeyRing
from api.server.middleware import header
from api.server.rate_limit import CounterUnavailable, RateLimiter

KEY_LOC = ("header", "authorization")
ADMITTED_DAY_S = 86_400
"""A key admitted from an address within the last day or two passes that
address's block on unknown keys (``_admitted``)."""
REMEMBER_EVERY_S = 60.0
"""How often a worker counts a key's admission from one address again."""
REMEMBERED_PAIRS = 10_000
"""The (address, key) pairs a worker remembers having counted (the oldest go)."""


def failure_bucket(scope: Scope) -> str:
    """Under what a client's calls are counted by address (its unknown keys; the
    playground lane's calls): its address, or for IPv6 its /64 network (one host is commonly given a whole
    /64, so counting single addresses would let it rotate past the limit).

    >>> failure_bucket({"client": ("203.0.113.7", 5000)})
    '203.0.113.7'
    >>> failure_bucket({"client": ("2001:db8:1:2:aaaa::1", 5000)})
    '2001:db8:1:2::/64'
    """
    client = scope.get("client")
    host: str = client[0] if client else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host or "-"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def presented_key(scope: Scope) -> str | None:
    """The key a request carries (``Authorization: Bearer`` or ``X-API-Key``)."""
    return _presented(scope)[0]


def key_loc(scope: Scope) -> tuple[str, str]:
    """The ``loc`` of an answer about the request's key: the header that carried it
    (``X-API-Key`` when the key came there), else ``Authorization``."""
    return _presented(scope)[1]


def _presented(scope: Scope) -> tuple[str | None, tuple[str, str]]:
    authorization = header(scope, b"authorization")
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip(), KEY_LOC
    key = header(scope, b"x-api-key")
    if key and key.strip():
        return key.strip(), ("header", "x-api-key")
    return None, KEY_LOC


class ApiKeyMiddleware:
    """See the module docstring."""

    def __init__(self, app: ASGIApp, keys: KeyRing, limiter: RateLimiter,
                 failure_limit: RateLimitItem, metrics_need_key: bool = False) -> None:
        self.app = app
        self.keys = keys
        self.limiter = limiter
        self.failure_limit = failure_limit
        self.metrics_need_key = metrics_need_key
        self.remembered: OrderedDict[tuple[str, str], float] = OrderedDict()
        """(address bucket, key id) -> when this worker last counted the pair."""

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
        state = scope.setdefault("state", {})
        try:
            refusal = await self._check(scope, state)
        except CounterUnavailable as down:
            refusal = counter_down(down, key_loc(scope))
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _check(self, scope: Scope, state: dict[str, object]) -> Response | None:
        """The refusal of this request, or None when it may go on."""
        presented, loc = _presented(scope)
        if presented is None:
            state["log_fields"] = {"key": "none"}
            return error_response(
                401, "unauthorized", "an API key is required: send it as 'Authorization: "
                "Bearer KEY' or 'X-API-Key: KEY'", KEY_LOC, headers={"WWW-Authenticate": "Bearer"})
        bucket = failure_bucket(scope)
        failures = f"failed-keys/{bucket}"
        key = self.keys.find(presented)
        if key is not None and scope.get("path") == "/metrics":
            # A scrape with a right key asks nothing of the counter: Prometheus must read
            # redis_up and the failed checks most while Redis is away, when a check would be
            # refused (closed).  A wrong key is counted as any guess is.
            state["key_id"] = key.id
            return None
        if key is None:  # counted and checked in one step: guesses sent at once
            wait = await self.limiter.allow(failures, self.failure_limit, local=True)
        else:  # get no more answers than the limit
            wait = await self.limiter.over(failures, self.failure_limit, local=True)
            if wait is not None and await self.limiter.marked(_admitted(bucket, key.id)):
                wait = None
        if wait is not None:
            state["log_fields"] = {"key": "not-checked"}
            return error_response(
                429, "too_many_failed_keys",
                f"too many requests with an unknown API key from this address "
                f"({self.failure_limit}); for {wait} s only keys already used from here "
                "are served",
                loc, headers={"Retry-After": str(wait)})
        if key is None:
            state["log_fields"] = {"key": "unknown"}
            return error_response(
                401, "unauthorized", "this API key is not known: send a key this service was "
                "configured with (as 'Authorization: Bearer KEY' or 'X-API-Key: KEY'); "
                "retrying this one will not help", loc,
                                  headers={"WWW-Authenticate": "Bearer"})
        state["key_id"] = key.id  # the access log names the key by it, admitted or not
        wait = await self.limiter.allow(key.id, key.rate)
        if wait is not None:
            return error_response(
                429, "rate_limited",
                f"this API key is over its rate limit ({key.rate}); retry in {wait} s",
                loc, headers={"Retry-After": str(wait)})
        await self._remember(bucket, key.id)
        return None

    async def _remember(self, bucket: str, key_id: str) -> None:
        """Count that ``key_id`` was admitted from ``bucket`` (in the counter at
        most once per ``REMEMBER_EVERY_S`` per worker: not a write per request)."""
        now = time.monotonic()
        pair = (bucket, key_id)
        if now - self.remembered.get(pair, -math.inf) < REMEMBER_EVERY_S:
            self.remembered.move_to_end(pair)
            return
        self.remembered[pair] = now
        self.remembered.move_to_end(pair)
        while len(self.remembered) > REMEMBERED_PAIRS:
            self.remembered.popitem(last=False)
        await self.limiter.mark(_admitted(bucket, key_id)[0], 2 * ADMITTED_DAY_S)


def _admitted(bucket: str, key_id: str) -> tuple[str, str]:
    """The marks of ``key_id``'s admission from ``bucket`` today and yesterday
    (UTC days; each lives two days): a key admitted within the last one to
    two days passes a block, whichever side of midnight."""
    day = int(time.time() // ADMITTED_DAY_S)
    return (f"admitted-keys/{bucket}/{key_id}/{day}",
            f"admitted-keys/{bucket}/{key_id}/{day - 1}")


def counter_down(down: CounterUnavailable,
                 loc: tuple[str, str] = KEY_LOC) -> Response:
    """503 while the rate limit counter does not answer (``RUMMY_SOLVER_RATE_LIMIT_FAIL=closed``);
    ``loc``: the header that carried the key (``key_loc``)."""
    return error_response(
        503, "rate_limit_unavailable",
        f"the rate limits cannot be counted now (Redis does not answer) and this service "
        f"refuses what it cannot count; retry in {down.retry_after} s",
        loc, headers={"Retry-After": str(down.retry_after)})
