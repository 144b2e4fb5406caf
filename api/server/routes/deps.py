"""What the routers share: the documented error answers."""

from __future__ import annotations

from typing import Any

from api.shared.schemas import ErrorResponse


def _error(description: str, type_: str, msg: str, loc: list[Any] | None = None) -> dict[str, Any]:
    return {
        "model": ErrorResponse,
        "description": description,
        "content": {"application/json": {"example": {
            "detail": [{"type": type_, "loc": loc or ["body"], "msg": msg}]}}},
    }


PROTOCOL_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _error("not valid HTTP/1.1 (a Content-Length that is not a number, a malformed request "
                "line or header): answered by rummy-solver serve's HTTP protocol before any "
                "route, the connection then closed", "invalid_http",
                "the request is not valid HTTP/1.1 (a Content-Length that is not a number, a "
                "malformed request line or header ...)"),
    431: _error("the request's head (request line and headers) is over "
                "RUMMY_SOLVER_MAX_HEADER_BYTES or has more than RUMMY_SOLVER_MAX_HEADERS headers: "
                "refused as it arrives, the connection then closed", "headers_too_large",
                "the request's head (request line and headers) is over 32768 bytes "
                "(RUMMY_SOLVER_MAX_HEADER_BYTES)", ["header"]),
}
"""The answers of rummy-solver serve's HTTP protocol (``api.server.protocol``) to a
request it refuses before any route sees it: any path may get them."""

ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    **PROTOCOL_RESPONSES,
    401: {**_error("no API key, or an unknown one (only when the service has keys: "
                   "RUMMY_SOLVER_API_KEYS or RUMMY_SOLVER_API_KEYS_FILE)",
                   "unauthorized", "an API key is required: send it as 'Authorization: Bearer "
                   "KEY' or 'X-API-Key: KEY'", ["header", "authorization"]),
          "headers": {"WWW-Authenticate": {"description": "Bearer",
                                           "schema": {"type": "string"}}}},
    408: _error("the body did not arrive within RUMMY_SOLVER_BODY_TIMEOUT_S of the request",
                "body_timeout", "the request body did not arrive within 10 s "
                "(RUMMY_SOLVER_BODY_TIMEOUT_S)"),
    413: _error("request body over the size limit (RUMMY_SOLVER_MAX_BODY_BYTES)",
                "body_too_large", "request body is 2000000 bytes; the limit is 1000000 "
                "(RUMMY_SOLVER_MAX_BODY_BYTES)"),
    415: _error("the body's Content-Type is not JSON (application/json or application/*+json); "
                "a body without a Content-Type is read as JSON",
                "unsupported_media_type", "the body's Content-Type is 'text/plain'; send JSON as "
                "application/json", ["header", "content-type"]),
    422: _error("malformed request (not UTF-8, not JSON, nested too deep, wrong types) or a "
                "domain error (unknown card, too many copies, bad knob, limits); type is a "
                "stable code and loc points at the field and index",
                "invalid_card", "unknown card 'ZZ' at position 3: use rank A 2-9 T (or 10) J Q K "
                "followed by suit S H D C (or ♠ ♥ ♦ ♣), or JK for a joker", ["body", "hand", 3]),
    429: {**_error("the API key is over its rate limit (RUMMY_SOLVER_RATE_LIMIT, or its own in "
                   "the key file), or this client address sent too many unknown keys "
                   "(too_many_failed_keys, RUMMY_SOLVER_AUTH_FAILURE_LIMIT)", "rate_limited",
                   "this API key is over its rate limit (1000 per 1 second); retry in 1 s",
                   ["header", "authorization"]),
          "headers": {"Retry-After": {"description": "seconds to wait before retrying",
                                      "schema": {"type": "integer"}}}},
    503: {**_error("the request could not be served in time (the solvers are busy: see the "
                   "Retry-After header), the solver failed (logged; not your input), or the "
                   "rate limits cannot be counted (Redis does not answer) and the service "
                   "refuses what it cannot count (rate_limit_unavailable)",
                   "overloaded", "the solvers are busy: this request would wait about 2400 ms, "
                   "too close to its deadline; retry in 3 s"),
          "headers": {"Retry-After": {"description": "seconds to wait before retrying",
                                      "schema": {"type": "integer"}}}},
}
"""Error responses documented on every POST route, each with an example."""

KEY_RESPONSES: dict[int | str, dict[str, Any]] = {
    **PROTOCOL_RESPONSES,
    401: ERROR_RESPONSES[401],
    429: ERROR_RESPONSES[429],
    503: {**_error("the rate limits cannot be counted (Redis does not answer) and the service "
                   "refuses what it cannot count (RUMMY_SOLVER_RATE_LIMIT_FAIL=closed)",
                   "rate_limit_unavailable", "the rate limits cannot be counted now (Redis does "
                   "not answer) and this service refuses what it cannot count; retry in 1 s",
                   ["header", "authorization"]),
          "headers": ERROR_RESPONSES[503]["headers"]},
}
"""The answers of the API key check, which every ``/v1`` request passes before its
route runs (and the HTTP protocol's): documented on the routes that take no JSON
body (the variants, the stream), whose other errors are their own."""

METRICS_RESPONSES: dict[int | str, dict[str, Any]] = {
    **PROTOCOL_RESPONSES,
    401: {**ERROR_RESPONSES[401], "description": (
        "no API key, or an unknown one (only when RUMMY_SOLVER_METRICS_NEED_KEY is true and "
        "the service has keys)")},
    429: {**ERROR_RESPONSES[429], "description": (
        "this client address sent too many unknown keys (too_many_failed_keys, "
        "RUMMY_SOLVER_AUTH_FAILURE_LIMIT; only when RUMMY_SOLVER_METRICS_NEED_KEY is true): a "
        "scrape with a known key is not counted against its rate"),
          "content": {"application/json": {"example": {"detail": [{
              "type": "too_many_failed_keys", "loc": ["header", "authorization"],
              "msg": "too many requests with an unknown API key from this address (10 per 1 "
                     "minute); for 41 s only keys already used from here are served"}]}}}},
}
"""The answers of ``/metrics`` besides its series: the HTTP protocol's, and the API
key check's when RUMMY_SOLVER_METRICS_NEED_KEY makes it ask for a key."""
