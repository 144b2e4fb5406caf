"""Mapping of errors to HTTP responses, in FastAPI's ``{"detail": [...]}`` shape.

Domain errors of the library (``InvalidHandError``, ``InvalidRulesError``)
and the service's own limits become 422 with ``loc`` pointing at the
offending field and index and ``type`` a stable code.  A failure inside the
solver that is not the request's fault becomes 503 (logged with a reference),
never 500.

Error bodies stay small and cheap whatever the request held: at most
``MAX_ERRORS`` items, each input echoed only as a short, shallow preview
(``bounded``), and never more than ``MAX_ERROR_BYTES`` in all.
"""

from __future__ import annotations

import json
import logging
import math
import re
import uuid
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from solver import InvalidHandError, InvalidOptionError, InvalidRulesError, SolverInputError

logger = logging.getLogger("api")

Loc = list[str | int]

MAX_ERRORS = 20
MAX_ERROR_BYTES = 64 * 1024
_PREVIEW_ITEMS = 8
_PREVIEW_DEPTH = 3
_PREVIEW_CHARS = 120

_FIELD_PART = re.compile(r"([A-Za-z_]\w*)|\[(\d+)\]")


class RequestError(Exception):
    """A request the service rejects (422): one FastAPI-shaped error item."""

    def __init__(self, loc: Sequence[str | int], msg: str, type_: str) -> None:
        super().__init__(msg)
        self.loc: Loc = list(loc)
        self.msg = msg
        self.type = type_

    def to_dict(self) -> dict[str, Any]:
        """The error item: ``{"loc", "msg", "type"}``."""
        return {"loc": self.loc, "msg": self.msg, "type": self.type}


class SolverFailure(Exception):
    """The solver failed on a request in a way that is not the request's fault."""

    def __init__(self, reference: str) -> None:
        super().__init__(reference)
        self.reference = reference

    @property
    def message(self) -> str:
        """What the client is told (the traceback is only in the log)."""
        return f"the solver failed on this request; the error is logged as {self.reference}"


def field_loc(field: str) -> Loc:
    """``"melds[2]"`` -> ``["melds", 2]``; ``"players[1].melded[0]"`` ->
    ``["players", 1, "melded", 0]``; ``"hand"`` -> ``["hand"]``."""
    loc: Loc = [name if name else int(index) for name, index in _FIELD_PART.findall(field)]
    return loc or [field]


def domain_error(exc: ValueError, prefix: Sequence[str | int] = ("body",)) -> RequestError:
    """The 422 item for a library error raised on a request whose body is at ``prefix``."""
    if isinstance(exc, SolverInputError):
        return RequestError([*prefix, *exc.loc], exc.message, exc.code)
    # The library raises ValueError (or a subclass) only for unusable input.
    return RequestError(list(prefix), bounded(str(exc)) or type(exc).__name__, "invalid_request")


def solver_failure(exc: BaseException, what: str) -> SolverFailure:
    """Log an unexpected exception with a fresh reference and wrap it."""
    reference = uuid.uuid4().hex[:12]
    logger.error("%s failed (ref %s)", what, reference, exc_info=exc)
    return SolverFailure(reference)


def bounded(value: Any, depth: int = 0) -> Any:
    """A short, JSON-safe preview of ``value`` for echoing bad input back.

    Strings are cut to ``_PREVIEW_CHARS`` characters (lone surrogates and
    undecodable bytes replaced), lists and objects to ``_PREVIEW_ITEMS``
    entries and ``_PREVIEW_DEPTH`` levels (deeper parts become ``"..."``),
    NaN and infinities become strings.  Never recurses past the depth limit,
    whatever the input."""
    if value is None or isinstance(value, bool | int):
        return value if not isinstance(value, int) or abs(value) < 10**15 else str(value)[:40]
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, bytes | bytearray):
        value = bytes(value[: _PREVIEW_CHARS * 4]).decode("utf-8", "replace")
    if isinstance(value, str):
        text = value[:_PREVIEW_CHARS].encode("utf-8", "replace").decode("utf-8")
        return text + ("..." if len(value) > _PREVIEW_CHARS else "")
    if depth >= _PREVIEW_DEPTH:
        return "..."
    if isinstance(value, dict):
        items = list(value.items())
        out = {str(bounded(k, depth + 1)): bounded(v, depth + 1) for k, v in items[:_PREVIEW_ITEMS]}
        if len(items) > _PREVIEW_ITEMS:
            out["..."] = f"{len(items) - _PREVIEW_ITEMS} more"
        return out
    if isinstance(value, list | tuple | set | frozenset):
        seq = list(value)[: _PREVIEW_ITEMS + 1]
        out_list = [bounded(v, depth + 1) for v in seq[:_PREVIEW_ITEMS]]
        if len(seq) > _PREVIEW_ITEMS:
            out_list.append(f"... ({len(value)} items)")
        return out_list
    return bounded(str(value), depth)


_RANGE_TYPES = frozenset({"greater_than_equal", "less_than_equal", "enum", "literal_error",
                          "too_long"})


def stable_type(error: Any) -> str:
    """The error's code, keeping the service's stable codes where the schema
    now checks what the library used to: a knob out of range (or not one of
    its choices) is ``invalid_rules``, a time limit past the most allowed is
    ``time_limit_too_large``."""
    type_ = str(error.get("type", "invalid_request"))
    loc = list(error.get("loc", ()))
    if type_ in _RANGE_TYPES and "rules" in loc:
        return "invalid_rules"
    if type_ == "less_than_equal" and loc and loc[-1] == "time_limit_ms":
        return "time_limit_too_large"
    return type_


def _error_items(errors: Sequence[Any]) -> list[dict[str, Any]]:
    items = []
    for error in errors[:MAX_ERRORS]:
        item: dict[str, Any] = {
            "type": bounded(stable_type(error)),
            "loc": bounded(list(error.get("loc", ())), depth=1),
            "msg": bounded(str(error.get("msg", ""))),
        }
        if "input" in error:
            item["input"] = bounded(error["input"], depth=1)
        items.append(item)
    return items


def error_response(status_code: int, type_: str, msg: str,
                   loc: Sequence[str | int] = ("body",),
                   headers: dict[str, str] | None = None) -> Response:
    """An error answer in the one error shape: ``{"detail": [{"type", "loc", "msg"}]}``."""
    body = json.dumps({"detail": [{"type": type_, "loc": list(loc), "msg": bounded(msg)}]},
                      ensure_ascii=False, separators=(",", ":")).encode()
    return Response(body, status_code=status_code, media_type="application/json", headers=headers)


def error_bytes(type_: str, msg: str) -> bytes:
    """The body of ``error_response`` (for answers built as bytes)."""
    return json.dumps({"detail": [{"type": type_, "loc": ["body"], "msg": msg}]},
                      ensure_ascii=False, separators=(",", ":")).encode()


def validation_response(errors: Sequence[Any], status_code: int = 422) -> Response:
    """The 422 body for ``errors`` (FastAPI's shape), bounded in count and size."""
    items = _error_items(errors)
    if len(errors) > MAX_ERRORS:
        items.append({"type": "too_many_errors", "loc": ["body"],
                      "msg": f"{len(errors) - MAX_ERRORS} more error(s) not shown"})
    body = json.dumps({"detail": items}, ensure_ascii=False, separators=(",", ":")).encode()
    while len(body) > MAX_ERROR_BYTES and items:
        items.pop()
        body = json.dumps({"detail": items}, ensure_ascii=False, separators=(",", ":")).encode()
    return Response(body, status_code=status_code, media_type="application/json")


async def _on_validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    return validation_response(exc.errors())


async def _on_request_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestError)
    return validation_response([exc.to_dict()])


async def _on_domain_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ValueError)
    return validation_response([domain_error(exc).to_dict()])


async def _on_solver_failure(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, SolverFailure)
    return error_response(503, "solver_error", exc.message)


async def _on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    headers = dict(exc.headers) if exc.headers else None
    return error_response(exc.status_code, code, str(exc.detail), ("path",) if code == "not_found"
                          else ("method",), headers)


def install_exception_handlers(app: FastAPI) -> None:
    """Register the error mappings on ``app`` (every one in the one error shape)."""
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(RequestError, _on_request_error)
    app.add_exception_handler(InvalidHandError, _on_domain_error)
    app.add_exception_handler(InvalidRulesError, _on_domain_error)
    app.add_exception_handler(InvalidOptionError, _on_domain_error)
    app.add_exception_handler(SolverFailure, _on_solver_failure)
