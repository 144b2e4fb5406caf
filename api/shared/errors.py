"""Errors of every front end (HTTP, stream, bulk, the command line): one shape, one mapper.

An error item is ``{"type", "loc", "msg"}``: ``type`` a stable code
(README lists them all), ``loc`` the path to the input at fault, ``msg`` what
is wrong and what is allowed.  Items are made here and only here, from

* the library's input errors (``solver.errors.SolverInputError``: they carry
  their code and loc), and
* the request models' validation errors (pydantic), with the few codes the
  service keeps stable rewritten: anything wrong inside ``rules`` is
  ``invalid_rules`` and says what the knob takes.

An item's ``loc`` starts at the top of the request; each front end puts its
own prefix in front (``"body"`` over HTTP, ``"line"`` in a stream or a bulk
file, nothing on the command line), so the same bad request gives the same
item everywhere.  Items stay small whatever the input held (``bounded``).

>>> from solver.errors import InvalidHandError
>>> from_exception(InvalidHandError("unknown card 'ZZ'", code="invalid_card", index=2))
{'type': 'invalid_card', 'loc': ['hand', 2], 'msg': "unknown card 'ZZ'"}
>>> rejected = RequestRejected.one("missing", ("variant",), "Field required")
>>> rejected.prefixed(("line",))
[{'type': 'missing', 'loc': ['line', 'variant'], 'msg': 'Field required'}]
"""

from __future__ import annotations

import json
import logging
import math
import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from solver.errors import SolverInputError
from solver.rules import KNOB_NAMES, LEGACY_KNOBS, knob_expectation, unknown_knob_message

logger = logging.getLogger("api")

ErrorItem = dict[str, Any]
Loc = Sequence[str | int]

MAX_ERRORS = 20
"""Items listed at most (a ``too_many_errors`` item says how many more)."""
MAX_ERROR_BYTES = 64 * 1024
MAX_MESSAGE_CHARS = 2000
"""The longest message of the library's own words (the longest, a rules
error listing every knob, is under 800): a backstop, as what a message
echoes of the input came through the request models' bounds."""
_PREVIEW_ITEMS = 8
_PREVIEW_DEPTH = 3
_PREVIEW_CHARS = 120


def item(type_: str, loc: Loc, msg: str) -> ErrorItem:
    """An error item (``loc`` from the top of the request)."""
    return {"type": type_, "loc": list(loc), "msg": msg}


def error_body(items: Sequence[ErrorItem]) -> bytes:
    """An error answer's body, ``{"detail": [items]}``, as compact JSON.

    >>> error_body([item("unavailable", ("body",), "retry")])
    b'{"detail":[{"type":"unavailable","loc":["body"],"msg":"retry"}]}'
    """
    return json.dumps({"detail": list(items)}, ensure_ascii=False,
                      separators=(",", ":")).encode()


def command_line_error(items: Sequence[ErrorItem]) -> dict[str, Any]:
    """The command line's error with ``--json`` (``rummy-solver``, and
    ``bulk`` on stderr): ``{"error": the first item, "errors": every item}``,
    the items an HTTP error answer lists under ``detail`` (give
    ``RequestRejected.prefixed(())``), ``error`` for a reader of one.

    >>> command_line_error([item("missing", ("hand",), "Field required")])["errors"]
    [{'type': 'missing', 'loc': ['hand'], 'msg': 'Field required'}]
    """
    return {"error": items[0], "errors": list(items)}


def error_bytes(type_: str, msg: str) -> bytes:
    """The body of a one-item error answer about the request body (for
    answers built as bytes: the solver pool's 503s, uvicorn's 400s)."""
    return error_body([item(type_, ("body",), msg)])


class RequestRejected(ValueError):
    """A request a front end refuses: its error items (``loc`` without prefix)."""

    def __init__(self, items: Sequence[ErrorItem]) -> None:
        super().__init__("; ".join(str(i["msg"]) for i in items[:3]))
        self.items = list(items)

    @classmethod
    def one(cls, type_: str, loc: Loc, msg: str) -> RequestRejected:
        """A rejection with a single item."""
        return cls([item(type_, loc, msg)])

    def prefixed(self, prefix: Loc) -> list[ErrorItem]:
        """The items with ``prefix`` in front of each ``loc``, at most
        ``MAX_ERRORS`` of them plus one ``too_many_errors`` item."""
        shown = [{**i, "loc": [*prefix, *i["loc"]]} for i in self.items[:MAX_ERRORS]]
        if len(self.items) > MAX_ERRORS:
            shown.append(item("too_many_errors", prefix,
                              f"{len(self.items) - MAX_ERRORS} more error(s) not shown"))
        return shown


def from_exception(exc: ValueError) -> ErrorItem:
    """The item of an input error the library raised: its message whole (the
    list of knobs a game takes, say), up to ``MAX_MESSAGE_CHARS``."""
    if isinstance(exc, SolverInputError):
        return item(exc.code, exc.loc, whole_message(exc.message))
    # The library raises a plain ValueError only for unusable input it has no code for.
    return item("invalid_request", (), whole_message(str(exc)) or type(exc).__name__)


def whole_message(message: str) -> str:
    """A message written by the library or the service, cut only past
    ``MAX_MESSAGE_CHARS`` (``bounded`` is for echoing input, not for our words)."""
    cut = message if len(message) <= MAX_MESSAGE_CHARS else message[:MAX_MESSAGE_CHARS] + "..."
    return cut.encode("utf-8", "replace").decode("utf-8")  # lone surrogates the input held


def from_validation(errors: Iterable[Mapping[str, Any]], prefix: Loc = ()) -> RequestRejected:
    """The rejection for a request model's validation errors (pydantic's
    ``errors()``), ``loc`` relative to the model plus ``prefix``."""
    items = []
    for error in errors:
        loc = [*prefix, *bounded(list(error.get("loc", ())), depth=1)]
        type_ = str(error.get("type", "invalid_request"))
        msg = str(error.get("msg", ""))
        if _in_rules(tuple(error.get("loc", ())), type_):
            # Our words, whole: only what they echo of the input is bounded.
            items.append(item("invalid_rules", loc, whole_message(_rules_message(
                loc[loc.index("rules") + 1:], type_, str(bounded(msg)), error.get("input")))))
            continue
        items.append(item(str(bounded(type_)), loc, str(bounded(msg))))
    return RequestRejected(items)


def _in_rules(loc: Sequence[Any], type_: str) -> bool:
    """Whether an error of a request model is inside its ``rules`` field (a
    top-level field wherever a request has one): not a field named rules
    that the model, or a part of it, does not have (a batch's, a player's)."""
    return loc[:1] == ("rules",) and not (len(loc) == 1 and type_ == "extra_forbidden")


def _rules_message(path: Sequence[Any], type_: str, msg: str, given: object) -> str:
    """What is wrong inside ``rules``, in the library's words (the knob and
    what it takes)."""
    if not path:
        if type_ == "invalid_rules":  # the model's own check (too many keys) says it best
            return msg
        return "rules must be an object mapping knob names to values (GET /v1/variants)"
    knob = path[0]
    if type_ == "extra_forbidden" and len(path) == 1:
        return unknown_knob_message(knob)  # the loc's names are bounded already
    if not isinstance(knob, str) or (knob not in KNOB_NAMES and knob not in LEGACY_KNOBS):
        return msg
    if len(path) == 1:
        return f"knob {knob!r} must be {knob_expectation(knob)}; got {spelled(given)}"
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path[1:])
    return f"knob {knob!r}{where}: {msg}"


def spelled(value: object) -> str:
    """A value of the input as a message quotes it: a string in quotes, as the
    messages quote names; anything else as the client wrote it, in JSON's
    spelling (``null``, ``true``, a whole number of any size as its digits),
    cut past ``_PREVIEW_CHARS``.

    >>> spelled("x"), spelled(None), spelled(True), spelled(10**20), spelled([1.5, None])
    ("'x'", 'null', 'true', '100000000000000000000', '[1.5, null]')
    """
    if isinstance(value, str):
        text = repr(bounded(value))
    elif isinstance(value, int) and not isinstance(value, bool):
        text = str(value)  # bounded() makes a long one a string, for JSON's readers
    else:
        text = json.dumps(bounded(value), ensure_ascii=False)
    return text if len(text) <= _PREVIEW_CHARS else text[:_PREVIEW_CHARS] + "..."


def solver_failure(exc: BaseException, what: str) -> str:
    """Log a failure that is not the request's fault with a fresh reference;
    the message the client gets."""
    reference = uuid.uuid4().hex[:12]
    logger.error("%s failed (ref %s)", what, reference, exc_info=exc)
    return f"the solver failed on this request; the error is logged as {reference}"


def bounded(value: Any, depth: int = 0) -> Any:
    """A short, JSON-safe preview of ``value`` for echoing input back.

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
