"""The playground's lane: with API keys on, the pages' own calls still work without a key,
at a small rate per client address.

The playground (``/play``, ``/play/gin``, ``/play/indian``) calls the JSON API
from the browser and has no key to send.  With keys configured, a ``/v1``
call goes through this lane instead of the key check when all of these hold:

* it carries no key (a call with a key goes the key's way: its own rate);
* it carries the pages' marker, ``X-Playground: 1`` (``api.pages.calls``): a
  client that forgot its key gets the usual 401, not a small rate it did not
  ask for;
* it is one of the calls the pages make (``api.pages.calls.CALLS``: solve,
  hints, the gin checks, advice, validate, round scores, the variants), so the
  lane opens nothing the pages do not use (no batch, no stream);
* a browser says the call comes from a page of this same site
  (``Sec-Fetch-Site: same-origin``, a header a page cannot set; a client that
  sends no such header is taken at its word): another site's page cannot
  spend its visitors' lanes here, whatever the CORS settings.

An admitted call is counted per client address (``auth.failure_bucket``: an
IPv6 client by its /64) against ``RUMMY_SOLVER_PLAYGROUND_RATE``; past it, 429
``rate_limited`` with ``Retry-After``.  Every call of the lane is one client of
the solvers' fair share (key id ``playground``, which the access log shows):
however many addresses use it, the lane together gets one key's share of the
solvers while keyed clients wait, never more.

The limits, plainly: the marker and ``Sec-Fetch-Site`` only keep browsers on
other sites out; a script can send both.  So anyone may call these
operations without a key at the lane's rate per address, sharing one fair
share with everyone else doing so: a free tier as small as the setting, not a
way around keys for a real client's volume.  An operator who wants no
key-less calls at all sets ``RUMMY_SOLVER_PLAYGROUND_RATE`` to empty: the lane
is gone, and the pages ask the visitor for a key (kept in the tab's session
storage and sent as ``Authorization``).
"""

from __future__ import annotations

from limits import parse
from starlette.types import ASGIApp, Receive, Scope, Send

from api.pages.calls import CALLS, MARKER, MARKER_VALUE
from api.server.auth import counter_down, failure_bucket, presented_key
from api.server.http_errors import error_response
from api.server.middleware import header
from api.server.rate_limit import CounterUnavailable, RateLimiter

LANE = "playground"
"""The lane's name: ``scope["state"]["lane"]`` of an admitted call, and its key id (the fair
share's client, the access log's ``key``); not a hex digest, so no key's id is the same."""

_MARKER = MARKER.lower().encode("latin-1")


def wants_lane(scope: Scope) -> bool:
    """Whether a call may go through the lane (see the module docstring); its rate aside."""
    if (scope.get("method"), scope.get("path")) not in CALLS:
        return False
    if header(scope, _MARKER) != MARKER_VALUE or presented_key(scope) is not None:
        return False
    site = header(scope, b"sec-fetch-site")
    return site is None or site == "same-origin"


class PlaygroundLaneMiddleware:
    """See the module docstring.  Outside ``ApiKeyMiddleware``: it marks an admitted call
    (``state["lane"]``), which the key check then lets pass."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter, rate: str) -> None:
        self.app = app
        self.limiter = limiter
        self.rate = parse(rate)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not wants_lane(scope):
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})
        state["key_id"] = LANE
        try:
            wait = await self.limiter.allow(f"{LANE}/{failure_bucket(scope)}", self.rate)
        except CounterUnavailable as down:  # a silent Redis under the closed policy
            await counter_down(down, ("header", MARKER.lower()))(scope, receive, send)
            return
        if wait is not None:
            await error_response(
                429, "rate_limited",
                f"the playground's calls without an API key are limited to {self.rate} from "
                f"one address; retry in {wait} s, or send an API key",
                ("header", MARKER.lower()), headers={"Retry-After": str(wait)},
            )(scope, receive, send)
            return
        state["lane"] = LANE
        await self.app(scope, receive, send)
