"""Mapping of errors to HTTP responses, in FastAPI's ``{"detail": [...]}`` shape.

Domain errors of the library (``InvalidHandError``, ``InvalidRulesError``)
and the service's own limits become 422 with ``loc`` pointing at the
offending field and index and ``type`` a stable code.  A failure inside the
solver that is not the request's fault becomes 503 (logged with a reference),
never 500.
"""

from __future__ import annotations

import logging
import math
import re
import uuid
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from solver import InvalidHandError, InvalidRulesError

logger = logging.getLogger("api")

Loc = list[str | int]

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
    if isinstance(exc, InvalidHandError):
        loc = [*prefix, *field_loc(exc.field)]
        if exc.index is not None:
            loc.append(exc.index)
        return RequestError(loc, exc.message, exc.code)
    if isinstance(exc, InvalidRulesError):
        if exc.knob in ("variant", "rules"):
            return RequestError([*prefix, exc.knob], exc.message, exc.code)
        return RequestError([*prefix, "rules", exc.knob], exc.message, exc.code)
    # The library raises ValueError (or a subclass) only for unusable input.
    return RequestError(list(prefix), str(exc) or type(exc).__name__, "invalid_request")


def solver_failure(exc: BaseException, what: str) -> SolverFailure:
    """Log an unexpected exception with a fresh reference and wrap it."""
    reference = uuid.uuid4().hex[:12]
    logger.error("%s failed (ref %s)", what, reference, exc_info=exc)
    return SolverFailure(reference)


def json_safe(value: Any) -> Any:
    """``value`` with everything JSON (and UTF-8) can carry, for echoing bad input back.

    Requests may hold NaN or infinities (Python's JSON parser accepts them),
    lone surrogates (``"\\ud800"``) or undecodable bytes; rendering those
    unchanged would fail and turn a 422 into a server error.
    """
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, dict):
        return {str(json_safe(k)): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [json_safe(v) for v in value]
    return json_safe(str(value))


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse(status_code=422, content={"detail": json_safe(exc.errors())})


async def _on_request_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestError)
    return JSONResponse(status_code=422, content={"detail": json_safe([exc.to_dict()])})


async def _on_domain_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ValueError)
    return JSONResponse(status_code=422, content={"detail": json_safe([domain_error(exc).to_dict()])})


async def _on_solver_failure(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, SolverFailure)
    return JSONResponse(status_code=503, content={"detail": exc.message})


def install_exception_handlers(app: FastAPI) -> None:
    """Register the 422/503 mappings on ``app``."""
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(RequestError, _on_request_error)
    app.add_exception_handler(InvalidHandError, _on_domain_error)
    app.add_exception_handler(InvalidRulesError, _on_domain_error)
    app.add_exception_handler(SolverFailure, _on_solver_failure)
