"""Mapping of errors to HTTP responses, in FastAPI's ``{"detail": [...]}`` shape.

Domain errors of the library (``InvalidHandError``, ``InvalidRulesError``)
and the service's own limits become 422 with ``loc`` pointing at the
offending field and index and ``type`` a stable code.  A failure inside the
solver that is not the request's fault becomes 503 (logged with a reference),
never 500.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from solver import InvalidHandError, InvalidRulesError

logger = logging.getLogger("api")

Loc = list[str | int]

_FIELD_PART = re.compile(r"\[(\d+)\]")


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
    """``"melds[2]"`` -> ``["melds", 2]``; ``"hand"`` -> ``["hand"]``."""
    head, _, rest = field.partition("[")
    loc: Loc = [head]
    if rest:
        loc.extend(int(index) for index in _FIELD_PART.findall("[" + rest))
    return loc


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


def _error_items(exc: RequestValidationError) -> list[Any]:
    """FastAPI's items, made JSON-safe even when the input was undecodable bytes."""
    try:
        return list(jsonable_encoder(exc.errors()))
    except Exception:
        # e.g. a non-UTF-8 body sent as text/plain: its bytes cannot be echoed.
        return [
            {"type": str(e.get("type")), "loc": list(e.get("loc", ())), "msg": str(e.get("msg"))}
            for e in exc.errors()
        ]


async def _on_validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse(status_code=422, content={"detail": _error_items(exc)})


async def _on_request_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestError)
    return JSONResponse(status_code=422, content={"detail": [exc.to_dict()]})


async def _on_domain_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ValueError)
    return JSONResponse(status_code=422, content={"detail": [domain_error(exc).to_dict()]})


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
