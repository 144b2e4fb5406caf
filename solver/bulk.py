"""Bulk answers for game logs: one JSON request per line in, one answer per line out.

Each line is the JSON body of a REST endpoint (``/v1/solve``,
``/v1/validate``, ``/v1/gin/knock``, ``/v1/hints/discard``,
``/v1/hints/draw``) plus an optional ``"id"`` and an optional ``"op"``
naming the operation (else the caller's default).  Each answer is
``{"id": ..., "result": {...}}`` -- ``result`` is the library result's
``to_dict()``, what the endpoint returns less ``elapsed_ms`` -- or
``{"id": ..., "error": {"type", "msg", "loc"}}``.  A bad line (not JSON, not
an object, an unknown field, a wrong type, an unknown op) gets an error
answer; nothing a line holds stops the run.

Fields are checked as strictly as the API checks them (``"1"`` is not an
integer, ``1`` is not a boolean, unknown fields are refused, every list and
string is bounded), and every line runs under the API's deadline: its own
``time_limit_ms`` or the default, counted from when its work starts.

* ``answer(request)`` answers one parsed request, ``answer_line(line)`` one
  raw line; both take an optional ``solver.deadline.Deadline`` (a stream's
  overall deadline, a client that went away) -- the streaming endpoint's
  per-line function;
* ``run_lines(lines, op, processes)`` answers an iterable of lines in input
  order on a process pool (chunks of ``CHUNK_LINES``, at most
  ``IN_FLIGHT_PER_PROCESS`` chunks per process in flight, so memory stays
  flat whatever the input's size); ``solver.bulk_ray`` runs the same chunks
  on Ray.

>>> answer({"id": 7, "variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"})["result"]["deadwood_points"]
33
>>> answer({"hand": "AS"}, op="solve")["error"]
{'type': 'missing', 'msg': 'Field required', 'loc': ['line', 'variant']}
"""

from __future__ import annotations

import functools
import json
import logging
import math
import multiprocessing
import os
import re
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import islice
from typing import Any, Literal, NamedTuple

from solver.deadline import REQUEST_BUDGET_MS, Deadline
from solver.engines import cpsat as _cpsat  # noqa: F401  loaded up front: no line pays for it
from solver.errors import SolverInputError
from solver.gin import knock_check
from solver.hints import MAX_SEEN_CARDS, discard_hint, draw_hint
from solver.rules import KNOB_NAMES, LEGACY_KNOBS, MAX_HAND_CARDS, PRESETS
from solver.solve import ENGINES, solve
from solver.validate import validate

logger = logging.getLogger("solver.bulk")

OPS: tuple[str, ...] = ("solve", "validate", "knock", "discard_hint", "draw_hint")
"""Operations a line may ask for (``"op"``), named after the library calls."""

CHUNK_LINES = 64
"""Lines per task sent to a worker process (or a Ray task)."""
IN_FLIGHT_PER_PROCESS = 4
"""Chunks in flight per worker: enough that no worker waits for the next
chunk while the oldest one holds up the output order, few enough that
memory stays flat."""
MAX_LINE_BYTES = 1_000_000
"""The longest line answered (the API's default ``RUMMY_SOLVER_MAX_BODY_BYTES``)."""

# The API's size bounds on request fields (api/schemas.py).
MAX_TOKEN = 16
MAX_HAND_STRING = 400
MAX_LIST = 64

Line = str | bytes
Loc = list[str | int]
LOC_PREFIX: tuple[str, ...] = ("line",)


class LineError(ValueError):
    """A line that cannot be answered: one error item (``type``, ``msg``, ``loc``)."""

    def __init__(self, type_: str, msg: str, loc: Sequence[str | int]) -> None:
        super().__init__(msg)
        self.type = type_
        self.msg = msg
        self.loc: Loc = list(loc)

    def to_dict(self) -> dict[str, Any]:
        """The error item of an answer."""
        return {"type": self.type, "msg": self.msg, "loc": self.loc}


def _env_int(environ: Mapping[str, str], name: str, default: int) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw.replace("_", ""))
    except ValueError:
        raise ValueError(f"{name} must be an integer; got {raw!r}") from None


@dataclass(frozen=True, slots=True)
class Limits:
    """The API's limits, applied to every line: hand sizes and time limits (ms).

    A solve's ``time_limit_ms`` defaults to ``default_time_limit_ms`` and may
    be at most ``max_time_limit_ms``; the other operations' default to and
    are capped by ``request_budget_ms``."""

    max_hand_cards: int = MAX_HAND_CARDS
    default_time_limit_ms: int = 1000
    max_time_limit_ms: int = 2000
    request_budget_ms: int = REQUEST_BUDGET_MS

    def __post_init__(self) -> None:
        for name in ("max_hand_cards", "default_time_limit_ms", "max_time_limit_ms",
                     "request_budget_ms"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"limit {name} must be a positive integer; got {value!r}")
        if self.max_hand_cards > MAX_HAND_CARDS:
            raise ValueError(f"limit max_hand_cards must be at most {MAX_HAND_CARDS}")
        if self.default_time_limit_ms > self.max_time_limit_ms:
            raise ValueError(f"limit default_time_limit_ms ({self.default_time_limit_ms}) must not "
                             f"exceed max_time_limit_ms ({self.max_time_limit_ms})")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Limits:
        """The limits the API would run with: ``RUMMY_SOLVER_MAX_HAND_CARDS``,
        ``RUMMY_SOLVER_DEFAULT_TIME_LIMIT_MS``, ``RUMMY_SOLVER_MAX_TIME_LIMIT_MS``
        (the request budget is ``solver.solve.REQUEST_BUDGET_MS``, read from
        ``RUMMY_SOLVER_REQUEST_BUDGET_MS``); ``ValueError`` when one is bad."""
        env = os.environ if environ is None else environ
        base = cls()
        return cls(
            max_hand_cards=_env_int(env, "RUMMY_SOLVER_MAX_HAND_CARDS", base.max_hand_cards),
            default_time_limit_ms=_env_int(env, "RUMMY_SOLVER_DEFAULT_TIME_LIMIT_MS",
                                           base.default_time_limit_ms),
            max_time_limit_ms=_env_int(env, "RUMMY_SOLVER_MAX_TIME_LIMIT_MS",
                                       base.max_time_limit_ms),
        )


DEFAULT_LIMITS = Limits()


# ---------------------------------------------------------------------------
# Field checks: each takes the value and its loc, returns the value to use
# or raises LineError (pydantic's error types and messages, as the API says).

Check = Callable[[object, Loc], Any]


def _string(value: object, loc: Loc, most: int = MAX_TOKEN) -> str:
    if not isinstance(value, str):
        raise LineError("string_type", "Input should be a valid string", loc)
    if len(value) > most:
        raise LineError("string_too_long", f"String should have at most {most} characters", loc)
    return value


def _list(value: object, loc: Loc, most: int = MAX_LIST) -> list[Any]:
    if not isinstance(value, list):
        raise LineError("list_type", "Input should be a valid list", loc)
    if len(value) > most:
        raise LineError("too_long", f"List should have at most {most} items after validation, "
                                    f"not {len(value)}", loc)
    return value


def _cards(value: object, loc: Loc, most: int = MAX_LIST) -> list[str]:
    """A list of card tokens (strings of at most ``MAX_TOKEN`` characters)."""
    items = _list(value, loc, most)
    for index, token in enumerate(items):
        _string(token, [*loc, index])
    return items


def _hand(value: object, loc: Loc) -> list[str]:
    """Cards as a list of tokens or one space/comma separated string."""
    if isinstance(value, str):
        # One over-long string stays one token: a clear "too long" error, not a split.
        value = [value] if len(value) > MAX_HAND_STRING else value.replace(",", " ").split()
    return _cards(value, loc)


def _melds(value: object, loc: Loc) -> list[list[str]]:
    return [_cards(meld, [*loc, index]) for index, meld in enumerate(_list(value, loc))]


def _seen(value: object, loc: Loc) -> list[str]:
    return _cards(value, loc, MAX_SEEN_CARDS)


def _bool(value: object, loc: Loc) -> bool:
    if not isinstance(value, bool):
        raise LineError("bool_type", "Input should be a valid boolean", loc)
    return value


def _int(value: object, loc: Loc, low: int, high: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise LineError("int_type", "Input should be a valid integer", loc)
    if value < low:
        raise LineError("greater_than_equal", f"Input should be greater than or equal to {low}", loc)
    if high is not None and value > high:
        raise LineError("less_than_equal", f"Input should be less than or equal to {high}", loc)
    return value


def _choice(values: Iterable[str], what: str, code: str) -> Check:
    choices = tuple(values)

    def check(value: object, loc: Loc) -> str:
        if isinstance(value, str) and value in choices:
            return value
        raise LineError(code, f"unknown {what} {repr(value)[:40]}; choose one of "
                              f"{', '.join(choices)}", loc)

    return check


_KNOBS = frozenset(KNOB_NAMES[1:]) | frozenset(LEGACY_KNOBS)


def _rules(value: object, loc: Loc) -> dict[str, Any]:
    # Knob values are checked by the library (solver.rules.make_rules) as
    # strictly as the API's schema; its errors name the knob.
    if not isinstance(value, dict):
        raise LineError("model_attributes_type",
                        "Input should be a valid dictionary or object to extract fields from", loc)
    for knob in value:
        if knob not in _KNOBS:
            raise LineError("extra_forbidden", "Extra inputs are not permitted", [*loc, knob])
    return value


def _optional(check: Check) -> Check:
    def optional(value: object, loc: Loc) -> Any:
        return None if value is None else check(value, loc)

    return optional


_variant = _choice(PRESETS, "variant", "unknown_variant")
_token = _optional(_string)
_rules_field = _optional(_rules)
_knock_limit = _optional(functools.partial(_int, low=0, high=200))


# ---------------------------------------------------------------------------
# Operations: the fields of each endpoint's body and the library call


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a request body: its check, whether it must be given, its default."""

    check: Check
    required: bool = False
    default: Any = None


Budget = Literal["solve", "play", "none"]


@dataclass(frozen=True, slots=True)
class Operation:
    """An endpoint's body (``fields``, plus ``time_limit_ms`` unless ``budget``
    is ``"none"``) and the library call answering it."""

    fields: Mapping[str, Field]
    call: Callable[[dict[str, Any], Deadline], Any]
    budget: Budget


def _solve(args: dict[str, Any], deadline: Deadline) -> Any:
    return solve(args["hand"], args["variant"], wild_rank=args["wild_rank"],
                 discard=args["discard"], rules=args["rules"], engine=args["engine"],
                 deadline=deadline)


def _validate(args: dict[str, Any], deadline: Deadline) -> Any:
    return validate(args["melds"], args["deadwood"], args["variant"], args["wild_rank"],
                    args["rules"], args["hand"])


def _knock(args: dict[str, Any], deadline: Deadline) -> Any:
    return knock_check(args["hand"], rules=args["rules"], knock_limit=args["knock_limit"],
                       upcard=args["upcard"], deadline=deadline)


def _discard_hint(args: dict[str, Any], deadline: Deadline) -> Any:
    return discard_hint(args["hand"], args["variant"], wild_rank=args["wild_rank"],
                        rules=args["rules"], deadline=deadline)


def _draw_hint(args: dict[str, Any], deadline: Deadline) -> Any:
    return draw_hint(args["hand"], args["discard_top"], args["variant"], seen=args["seen"],
                     wild_rank=args["wild_rank"], rules=args["rules"], deadline=deadline)


OPERATIONS: dict[str, Operation] = {
    "solve": Operation({
        "variant": Field(_variant, required=True),
        "hand": Field(_hand, required=True),
        "wild_rank": Field(_token),
        "discard": Field(_bool, default=False),
        "rules": Field(_rules_field),
        "engine": Field(_choice(ENGINES, "engine", "unknown_engine"), default="auto"),
    }, _solve, "solve"),
    "validate": Operation({
        "variant": Field(_variant, required=True),
        "wild_rank": Field(_token),
        "rules": Field(_rules_field),
        "melds": Field(_melds, required=True),
        "deadwood": Field(_cards, default=()),
        "hand": Field(_optional(_hand)),
    }, _validate, "none"),
    "knock": Operation({
        "hand": Field(_hand, required=True),
        "knock_limit": Field(_knock_limit),
        "upcard": Field(_token),
        "rules": Field(_rules_field),
    }, _knock, "play"),
    "discard_hint": Operation({
        "variant": Field(_variant, required=True),
        "hand": Field(_hand, required=True),
        "wild_rank": Field(_token),
        "rules": Field(_rules_field),
    }, _discard_hint, "play"),
    "draw_hint": Operation({
        "variant": Field(_variant, required=True),
        "hand": Field(_hand, required=True),
        "discard_top": Field(_string, required=True),
        "seen": Field(_optional(_seen)),
        "wild_rank": Field(_token),
        "rules": Field(_rules_field),
    }, _draw_hint, "play"),
}
assert tuple(OPERATIONS) == OPS

_ENVELOPE = ("id", "op")


def _check_fields(operation: Operation, request: dict[str, Any], prefix: Loc) -> dict[str, Any]:
    """The library arguments of ``request`` (defaults filled in); the first
    problem as a ``LineError``, in the API's order: declared fields, then
    unknown ones."""
    args: dict[str, Any] = {}
    for name, spec in operation.fields.items():
        if name in request:
            args[name] = spec.check(request[name], [*prefix, name])
        elif spec.required:
            raise LineError("missing", "Field required", [*prefix, name])
        else:
            args[name] = spec.default
    allowed = operation.budget != "none"
    for name in request:
        if name not in operation.fields and name not in _ENVELOPE and not (
                allowed and name == "time_limit_ms"):
            raise LineError("extra_forbidden", "Extra inputs are not permitted", [*prefix, name])
    return args


def _check_sizes(args: dict[str, Any], limits: Limits, prefix: Loc) -> None:
    """The API's hand-size limits (``RUMMY_SOLVER_MAX_HAND_CARDS``)."""
    most = limits.max_hand_cards
    if "melds" in args:
        total = sum(len(meld) for meld in args["melds"]) + len(args["deadwood"])
        if total > most:
            raise LineError("hand_too_large", f"melds and deadwood hold {total} cards; at most "
                                              f"{most} are allowed", [*prefix, "melds"])
    hand = args.get("hand")
    if hand is not None and len(hand) > most:
        raise LineError("hand_too_large", f"hand has {len(hand)} cards; at most {most} are allowed",
                        [*prefix, "hand"])


def _time_limit(request: dict[str, Any], budget: Budget, limits: Limits, prefix: Loc) -> float:
    """The line's time limit in ms (``inf`` for calls that take none)."""
    if budget == "none":
        return math.inf
    if budget == "solve":
        default, most, setting = (limits.default_time_limit_ms, limits.max_time_limit_ms,
                                  "RUMMY_SOLVER_MAX_TIME_LIMIT_MS")
    else:
        default, most, setting = (limits.request_budget_ms, limits.request_budget_ms,
                                  "RUMMY_SOLVER_REQUEST_BUDGET_MS")
    value = request.get("time_limit_ms")
    if value is None:
        return default
    loc = [*prefix, "time_limit_ms"]
    limit = _int(value, loc, 1, None)
    if limit > most:
        raise LineError("time_limit_too_large",
                        f"time_limit_ms is {limit}; at most {most} is allowed ({setting})", loc)
    return limit


_FIELD_PART = re.compile(r"([A-Za-z_]\w*)|\[(\d+)\]")


def library_error(exc: ValueError, prefix: Sequence[str | int] = LOC_PREFIX) -> LineError:
    """The error item of a library error, ``loc`` as the API gives it:
    ``InvalidHandError(field="melds[2]", index=1)`` -> ``[*prefix, "melds", 2, 1]``;
    ``InvalidRulesError(knob="decks")`` -> ``[*prefix, "rules", "decks"]``."""
    if isinstance(exc, SolverInputError):
        return LineError(exc.code, exc.message, [*prefix, *exc.loc])
    return LineError("invalid_request", str(exc)[:200] or type(exc).__name__, list(prefix))


def _result(request: object, deadline: Deadline | None, op: str, limits: Limits,
            prefix: Loc) -> dict[str, Any]:
    if not isinstance(request, dict):
        raise LineError("model_attributes_type",
                        "Input should be a valid dictionary or object to extract fields from", prefix)
    chosen = request.get("op", op)
    if chosen not in OPERATIONS:
        raise LineError("unknown_op", f"unknown op {repr(chosen)[:40]}; choose one of "
                                      f"{', '.join(OPS)}", [*prefix, "op"])
    operation = OPERATIONS[chosen]
    args = _check_fields(operation, request, prefix)
    _check_sizes(args, limits, prefix)
    limit_ms = _time_limit(request, operation.budget, limits, prefix)
    if math.isinf(limit_ms):
        until = Deadline.never() if deadline is None else deadline
    else:
        until = Deadline.after_ms(limit_ms) if deadline is None else deadline.within_ms(limit_ms)
    try:
        result = operation.call(args, until)
    except ValueError as exc:  # the library's errors name the field: bad input
        raise library_error(exc, prefix) from None
    data: dict[str, Any] = result.to_dict()
    return data


def answer(request: object, deadline: Deadline | None = None, *, op: str = "solve",
           limits: Limits = DEFAULT_LIMITS,
           loc_prefix: Sequence[str | int] = LOC_PREFIX) -> dict[str, Any]:
    """The answer to one parsed request: ``{"id", "result"}`` or ``{"id", "error"}``.

    ``request`` is the decoded JSON of a line (any value: a non-object is an
    error answer); its ``"op"`` overrides ``op``.  The call runs by the
    line's ``time_limit_ms`` (else the default of ``limits``) from now, or
    from ``deadline`` cut to that when given.  Never raises for anything the
    request holds; a failure of the library itself is logged and answered
    ``solver_error``.  ``loc_prefix`` starts every error's ``loc``.
    """
    request_id = request.get("id") if isinstance(request, dict) else None
    prefix = list(loc_prefix)
    try:
        return {"id": request_id, "result": _result(request, deadline, op, limits, prefix)}
    except LineError as exc:
        return {"id": request_id, "error": exc.to_dict()}
    except Exception as exc:
        _log_failure(exc)
        error = LineError("solver_error", f"the solver failed on this line: "
                                          f"{type(exc).__name__}: {str(exc)[:200]}", prefix)
        return {"id": request_id, "error": error.to_dict()}


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


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:40]} is out of range")
    return value


def parse_line(line: Line, loc_prefix: Sequence[str | int] = LOC_PREFIX) -> object:
    """The JSON value of one line (``str``, or ``bytes`` in UTF-8); a
    ``LineError`` (``line_too_large``, ``line_not_utf8``, ``json_invalid``)
    when it is not standard JSON (``NaN`` and infinities are not)."""
    loc = list(loc_prefix)
    if len(line) > MAX_LINE_BYTES:
        raise LineError("line_too_large", f"line is over {MAX_LINE_BYTES} bytes", loc)
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LineError("line_not_utf8", f"the line is not UTF-8: byte {exc.start} cannot be "
                                             "decoded", loc) from None
    try:
        return json.loads(line.removeprefix("\ufeff"), parse_constant=_reject_constant,
                          parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise LineError("json_invalid", f"JSON decode error: {exc.msg}", loc) from None
    except (ValueError, RecursionError) as exc:
        why = "nested too deep" if isinstance(exc, RecursionError) else str(exc)[:200]
        raise LineError("json_invalid", f"JSON decode error: {why}", loc) from None


def answer_line(line: Line, deadline: Deadline | None = None, *, op: str = "solve",
                limits: Limits = DEFAULT_LIMITS,
                loc_prefix: Sequence[str | int] = LOC_PREFIX) -> dict[str, Any]:
    """``answer`` for a raw line (``str`` or UTF-8 ``bytes``): a line that is
    not JSON gets a ``json_invalid`` error answer with ``"id": null``."""
    try:
        request = parse_line(line, loc_prefix)
    except LineError as exc:
        return {"id": None, "error": exc.to_dict()}
    return answer(request, deadline, op=op, limits=limits, loc_prefix=loc_prefix)


# ---------------------------------------------------------------------------
# Many lines


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


def answer_chunk(lines: Sequence[Line], op: str = "solve",
                 limits: Limits = DEFAULT_LIMITS) -> list[Answered]:
    """Answer ``lines`` in order (the unit of work of a worker process or a Ray task)."""
    out = []
    for line in lines:
        data = answer_line(line, op=op, limits=limits)
        out.append(Answered(encode(data), "result" in data))
    return out


def chunks(lines: Iterable[Line], size: int = CHUNK_LINES) -> Iterator[list[Line]]:
    """``lines`` in lists of ``size`` (the last one shorter), read lazily."""
    iterator = iter(lines)
    while chunk := list(islice(iterator, size)):
        yield chunk


def default_processes() -> int:
    """One worker process per core."""
    return os.cpu_count() or 1


def run_lines(lines: Iterable[Line], op: str = "solve", processes: int | None = None, *,
              limits: Limits = DEFAULT_LIMITS,
              chunk_lines: int = CHUNK_LINES) -> Generator[Answered, None, None]:
    """Answer every line, in input order, one ``Answered`` per line.

    ``op`` is the operation of lines that name none.  ``processes`` worker
    processes (default: one per core; ``1``: in this process) answer chunks
    of ``chunk_lines`` lines; lines are read only as workers need them, so
    any input size runs in flat memory.  A worker process that dies (out of
    memory, a crash in a native library) is replaced and its lines retried
    one at a time; a line that kills a worker alone is answered
    ``worker_crashed``; when workers die on ``MAX_CRASH_STREAK`` lines in a
    row the run stops with ``WorkersFailed``.  Closing the iterator early
    stops the workers.  Workers start by ``fork`` from a single-threaded
    process on Linux, else by the ``forkserver`` method (safe in threaded
    programs), so a script calling this needs the usual
    ``if __name__ == "__main__":`` guard.

    >>> [a.ok for a in run_lines(['{"variant": "gin", "hand": "AS"}', "[]"], processes=1)]
    [True, False]
    """
    if op not in OPERATIONS:
        raise ValueError(f"unknown op {op!r}; choose one of {', '.join(OPS)}")
    workers = default_processes() if processes is None else processes
    if workers < 1:
        raise ValueError(f"processes must be at least 1; got {workers}")
    if chunk_lines < 1:
        raise ValueError(f"chunk_lines must be at least 1; got {chunk_lines}")
    task = functools.partial(answer_chunk, op=op, limits=limits)
    if workers == 1:
        for chunk in chunks(lines, chunk_lines):
            yield from task(chunk)
        return
    yield from _pooled(chunks(lines, chunk_lines), task, workers)


def _quiet_worker() -> None:
    # Ctrl-C is the parent's to handle: it stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


MAX_CRASH_STREAK = 3
"""Lines in a row whose worker died before the run is given up (``WorkersFailed``)."""


class WorkersFailed(RuntimeError):
    """Worker processes keep dying: the run cannot go on."""


ChunkTask = Callable[[Sequence[Line]], list[Answered]]


class _Workers:
    """A process pool that can be replaced when one of its processes dies."""

    def __init__(self, processes: int) -> None:
        self.context = multiprocessing.get_context(_start_method())
        if self.context.get_start_method() == "forkserver":
            self.context.set_forkserver_preload([__name__])
        self.processes = processes
        self.executor = self._new()

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.processes, mp_context=self.context,
                                   initializer=_quiet_worker)

    def submit(self, task: ChunkTask, chunk: Sequence[Line]) -> Future[list[Answered]]:
        """The chunk's future answers (failed with ``BrokenProcessPool`` when
        the pool broke before it could be sent)."""
        try:
            return self.executor.submit(task, chunk)
        except BrokenProcessPool as exc:
            broken: Future[list[Answered]] = Future()
            broken.set_exception(exc)
            return broken

    def replace(self) -> None:
        self.stop()
        self.executor = self._new()

    def stop(self) -> None:
        """Stop at once: kill the processes, drop what waits."""
        for process in list((self.executor._processes or {}).values()):
            process.terminate()
        self.executor.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        self.executor.shutdown(wait=True)


def _start_method() -> str:
    """How worker processes start: by ``fork`` from a single-threaded process
    on Linux (at once, with everything this process loaded), else by
    ``forkserver`` (safe in a threaded process -- the API, Ray's driver; the
    server imports this module once, about half a second, and forks workers)."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return "fork"
    return "forkserver"


def _pooled(chunked: Iterator[list[Line]], task: ChunkTask,
            processes: int) -> Generator[Answered, None, None]:
    workers = _Workers(processes)
    window: deque[tuple[list[Line], Future[list[Answered]]]] = deque()
    finished = False
    try:
        for chunk in chunked:
            window.append((chunk, workers.submit(task, chunk)))
            if len(window) >= processes * IN_FLIGHT_PER_PROCESS:
                yield from _oldest(window, workers, task)
        while window:
            yield from _oldest(window, workers, task)
        finished = True
    finally:
        if finished:
            workers.close()
        else:
            workers.stop()


def _oldest(window: deque[tuple[list[Line], Future[list[Answered]]]], workers: _Workers,
            task: ChunkTask) -> list[Answered]:
    """The answers of the oldest chunk in flight.  When a worker died, every
    chunk in flight is lost: the pool is replaced and their lines are run
    again one at a time, so only a line that kills a worker on its own is
    answered ``worker_crashed``; then the pool goes on as before."""
    future = window[0][1]
    try:
        answers = future.result()
        window.popleft()
        return answers
    except BrokenProcessPool:
        pass
    lost = [line for chunk, _ in window for line in chunk]
    window.clear()
    logger.error("a bulk worker process died; rerunning %d lines one at a time", len(lost))
    workers.replace()
    answers = []
    streak = 0
    for line in lost:
        try:
            answers += workers.submit(task, [line]).result()
            streak = 0
            continue
        except BrokenProcessPool:
            workers.replace()
        streak += 1
        if streak >= MAX_CRASH_STREAK:
            raise WorkersFailed(
                f"bulk worker processes died on {streak} lines in a row; if the calling script "
                "has no 'if __name__ == \"__main__\":' guard, workers cannot start (see "
                "multiprocessing's forkserver start method)")
        error = LineError("worker_crashed", "the worker process answering this line died "
                                            "(out of memory or a crash in the solver)",
                          list(LOC_PREFIX))
        answers.append(Answered(encode({"id": line_id(line), "error": error.to_dict()}), False))
    return answers


def line_id(line: Line) -> Any:
    """The ``"id"`` of a line, if it has one (for a line answered without running it)."""
    try:
        request = parse_line(line)
    except LineError:
        return None
    return request.get("id") if isinstance(request, dict) else None
