"""CORS with the service's error shape: ``JsonCorsMiddleware``.

Starlette's ``CORSMiddleware`` decides; this only changes how a refused
preflight is answered.  Starlette answers it 400 in plain text ("Disallowed
CORS origin"); here it is 403 ``cors_refused`` with one item per refused
part, its ``loc`` the request header that asked for it, so a client (or an
operator with curl) reads it as it reads every other error.  403 rather than
400: the request is well formed, the service declines what it asks.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response

from api.server.http_errors import items_response
from api.shared.errors import ErrorItem, bounded, item

_REFUSED_PREFIX = "Disallowed CORS "

# Starlette's name for a refused part -> the request header that asked for it.
_ASKED_BY = {
    "origin": "origin",
    "method": "access-control-request-method",
    "headers": "access-control-request-headers",
    "private-network": "access-control-request-private-network",
}


class JsonCorsMiddleware(CORSMiddleware):
    """``CORSMiddleware`` whose refused preflights are JSON errors (see the module docstring)."""

    def preflight_response(self, request_headers: Headers) -> Response:
        """Starlette's answer, or 403 ``cors_refused`` in the error shape when it refuses."""
        response = super().preflight_response(request_headers)
        if response.status_code < 400:
            return response
        text = bytes(response.body).decode("utf-8", "replace")
        parts = text.removeprefix(_REFUSED_PREFIX).split(", ") if text.startswith(
            _REFUSED_PREFIX) else []
        items = [self._refused(part, request_headers) for part in parts] or [
            item("cors_refused", ("header", "origin"), f"this CORS preflight is refused ({text})")]
        # The preflight headers stay (Vary, the allowed methods and headers): a
        # browser's developer tools show what would have been allowed.
        kept = {name: value for name, value in response.headers.items()
                if name not in ("content-type", "content-length")}
        return items_response(items, 403, kept)

    def _refused(self, part: str, request_headers: Headers) -> ErrorItem:
        header = _ASKED_BY.get(part, part)
        asked = bounded(request_headers.get(header, ""))  # echoed: cut to a preview
        if part == "origin":
            why = (f"the origin {asked!r} may not call this service "
                   "(RUMMY_SOLVER_CORS_ORIGINS lists those that may)")
        elif part == "method":
            why = (f"the method {asked!r} is not allowed; allowed: "
                   f"{', '.join(self.allow_methods)}")
        elif part == "headers":
            why = f"a requested header is not allowed ({asked!r})"
        else:
            why = f"the CORS preflight's {part} is not allowed"
        return item("cors_refused", ("header", header), why)
