"""The answer to one line: one JSON request per line in, one answer per line out.

Each line is the JSON body of an operation's endpoint (``api.shared.operations``:
``/v1/solve``, ``/v1/hints/discard`` ...) plus an optional ``"id"`` and an
optional ``"op"`` naming the operation (its name, e.g. ``"hint_discard"``, or
an older alias such as ``"discard_hint"``; else the caller's default).  Each
answer is ``{"id": ..., "result": {...}}`` -- ``result`` is what the endpoint
returns less ``elapsed_ms`` -- or ``{"id": ..., "line": N, "error": {"type",
"loc", "msg"}}`` with ``N`` the line's number (from 1) and the error item
exactly the endpoint's, ``loc`` starting with ``"line"`` instead of
``"body"``: both are checked by the same ``Operation.parse``.  Nothing a line
holds stops the run.

Every line runs under the endpoint's deadline: its own ``time_limit_ms`` or
the default, counted from when its work starts.

* ``answer(request, number)`` answers one decoded request, ``answer_line(line,
  number)`` one raw line; both take an optional ``solver.deadline.Deadline``
  (a stream's overall deadline, a client that went away);
* ``answer_chunk(lines, first)`` answers a list of lines in order: the unit
  of work of a solver process (``pack`` / ``unpack`` carry its answers
  between processes) or of a Ray task.

``/v1/solve/stream`` (its solver processes run ``answer_line``) and
``rummy-solver bulk`` (``api.bulk``: many chunks in order, on the solver
pool or Ray) answer a line alike, so a line gets the same answer from both.

>>> gin = {"id": 7, "variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"}
>>> answer(gin, 1)["result"]["deadwood_points"]
33
>>> answer({"op": "solve_hand", "hand": "AS"}, 2)
{'id': None, 'line': 2, 'error': {'type': 'missing', 'loc': ['line', 'variant'], 'msg': 'Field required'}}
>>> answer({"hand": "AS"}, 3)["error"]["msg"]  # no "op": the line says what it was read as
'Field required (a line without "op" is read as solve_hand)'
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any, NamedTuple

from api.shared.decode import decode
from api.shared.errors import RequestRejected, item, spelled
from api.shared.operations import DEFAULT_SETTINGS, find, line_names
from api.shared.settings import Settings
from solver.deadline import Deadline

logger = logging.getLogger("api.bulk")  # the name its log lines have always had

PREFIX = ("line",)
"""Where every error item's ``loc`` starts."""

Line = str | bytes
_ENVELOPE = ("id", "op")


class Answered(NamedTuple):
    """One answer as an output line: its JSON text (no newline) and whether it
    is a result (``ok``) rather than an error."""

    text: str
    ok: bool

    def to_dict(self) -> dict[str, Any]:
        """The answer as data."""
        data: dict[str, Any] = json.loads(self.text)
        return data


def encode(data: dict[str, Any]) -> str:
    """Compact JSON, as the API renders it (non-ASCII as is unless it holds
    lone surrogates, which UTF-8 cannot carry: then escaped)."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = json.dumps(data, allow_nan=False, separators=(",", ":"))
    return text


def error_answer(request_id: Any, number: int | None, error: dict[str, Any]) -> dict[str, Any]:
    """The answer of a line that could not be answered: ``{"id", "line", "error"}``."""
    return {"id": request_id, "line": number, "error": error}


def answer(request: object, number: int | None, deadline: Deadline | None = None, *,
           op: str = "solve_hand", settings: Settings = DEFAULT_SETTINGS) -> dict[str, Any]:
    """The answer to one decoded request (see the module docstring).

    ``request``'s ``"op"`` overrides ``op``; the call runs by the line's
    ``time_limit_ms`` (else its operation's default) from now, or from
    ``deadline`` cut to that when given.  Never raises for anything the
    request holds; a failure of the library itself is logged and answered
    ``solver_error``."""
    request_id = request.get("id") if isinstance(request, dict) else None
    try:
        return {"id": request_id, "result": _result(request, deadline, op, settings)}
    except RequestRejected as exc:
        return error_answer(request_id, number, exc.prefixed(PREFIX)[0])
    except Exception as exc:
        _log_failure(exc)
        return error_answer(request_id, number, item(
            "solver_error", PREFIX,
            f"the solver failed on this line: {type(exc).__name__}: {str(exc)[:200]}"))


def _result(request: object, deadline: Deadline | None, default_op: str,
            settings: Settings) -> dict[str, Any]:
    chosen = request.get("op", default_op) if isinstance(request, dict) else default_op
    operation = find(chosen)
    if operation is None or not operation.in_lines:
        raise RequestRejected.one("unknown_op", ("op",), f"unknown op {spelled(chosen)}; "
                                                         f"choose one of {', '.join(line_names())}")
    unnamed = isinstance(request, dict) and "op" not in request
    if isinstance(request, dict):
        request = {key: value for key, value in request.items() if key not in _ENVELOPE}
    try:
        call = operation.parse(request, settings)
    except RequestRejected as exc:
        if unnamed and exc.items and exc.items[0]["type"] == "missing":
            # a line of another operation read as the run's (a recorded game
            # in a solve run): say which operation the line was read as
            first = exc.items[0]
            exc.items[0] = {**first, "msg": f"{first['msg']} (a line without \"op\" is read "
                                            f"as {operation.name})"}
        raise
    until = (Deadline.after_ms(call.limit_ms) if deadline is None
             else deadline.within_ms(call.limit_ms))
    return operation.execute(call.args, until, settings)


_LOGGED_FAILURES: set[str] = set()
_MAX_LOGGED_FAILURES = 20


def _log_failure(exc: Exception) -> None:
    """Log a failure of the library with its traceback, once per kind of
    failure and process (a bug hit by every line of a large log would
    otherwise print a traceback per line)."""
    kind = f"{type(exc).__name__}: {str(exc)[:100]}"
    if kind in _LOGGED_FAILURES or len(_LOGGED_FAILURES) >= _MAX_LOGGED_FAILURES:
        logger.debug("bulk line failed again: %s", kind)
        return
    _LOGGED_FAILURES.add(kind)
    logger.error("bulk line failed (%s; logged once per process)", kind, exc_info=exc)


def answer_line(line: Line, number: int | None, deadline: Deadline | None = None, *,
                op: str = "solve_hand", settings: Settings = DEFAULT_SETTINGS) -> dict[str, Any]:
    """``answer`` for a raw line (``str`` or UTF-8 ``bytes``): a line that is
    not JSON gets an error answer (``json_invalid``, ``line_not_utf8``,
    ``line_too_large`` ...) with ``"id": null``."""
    try:
        request = decode(line, "line", settings.max_body_bytes)
    except RequestRejected as exc:
        return error_answer(None, number, exc.prefixed(PREFIX)[0])
    return answer(request, number, deadline, op=op, settings=settings)


def answer_chunk(lines: Sequence[Line], first: int, op: str = "solve_hand",
                 settings: Settings = DEFAULT_SETTINGS) -> list[Answered]:
    """Answer ``lines`` (numbered from ``first``) in order: the unit of work of
    a solver process or a Ray task."""
    out = []
    for number, line in enumerate(lines, first):
        data = answer_line(line, number, op=op, settings=settings)
        out.append(Answered(encode(data), "result" in data))
    return out


def pack(answers: Sequence[Answered]) -> bytes:
    """Answers as bytes for the trip between processes: one line each, its
    first character ``1`` for a result and ``0`` for an error."""
    return "\n".join(("1" if a.ok else "0") + a.text for a in answers).encode("utf-8")


def unpack(body: bytes) -> list[Answered]:
    """The answers ``pack`` wrote."""
    if not body:
        return []
    return [Answered(text[1:], text[0] == "1") for text in body.decode("utf-8").split("\n")]


def line_id(line: Line) -> Any:
    """The ``"id"`` of a line, if it has one (for a line answered without running it)."""
    try:
        request = decode(line, "line")
    except RequestRejected:
        return None
    return request.get("id") if isinstance(request, dict) else None


def check_op(op: str) -> str:
    """The name of the default operation ``op`` (a name or alias); ``ValueError`` if unknown."""
    operation = find(op)
    if operation is None or not operation.in_lines:
        raise ValueError(f"unknown op {op!r}; choose one of {', '.join(line_names())}")
    return operation.name
