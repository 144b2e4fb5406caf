"""What a solver process runs: one library call per job, answered as JSON bytes.

``run_job(op, payload, deadline_at, budget_ms, cancelled, settings)`` is the
``api.pool`` job runner.  ``payload`` holds the library call's arguments,
already checked by the route (``api.routes``); the call runs under one
``solver.deadline.Deadline`` (the request's, counted from its arrival, with
the work budget its time limit buys) and the answer is the result's
``to_dict()`` -- the one wire form -- plus ``elapsed_ms``.

Library errors become 422 in FastAPI's shape with ``loc`` pointing at the
field; anything else a logged 503.  Never 500.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from api.errors import RequestError, domain_error, error_bytes, solver_failure
from api.logs import REQUEST_ID
from api.settings import Settings
from solver.bulk import Limits, answer_line, encode
from solver.deadline import NODES_PER_MS, Deadline, Work
from solver.engines import cpsat as _cpsat  # noqa: F401  loaded up front: no deadline pays for it
from solver.gin import gin_score, knock_check
from solver.hints import discard_hint, draw_hint, layoffs_hint, pile_hint
from solver.round_scoring import PlayerHand, score_round
from solver.solve import solve
from solver.validate import validate

logger = logging.getLogger("api.jobs")

Payload = dict[str, Any]
Answer = tuple[int, bytes, dict[str, Any]]


def dumps(data: object) -> bytes:
    """Compact JSON, as FastAPI's ``JSONResponse`` renders it."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def _solve(payload: Payload, deadline: Deadline, settings: Settings) -> dict[str, Any]:
    return solve(deadline=deadline, **payload).to_dict()


def _validate(payload: Payload, deadline: Deadline, settings: Settings) -> dict[str, Any]:
    return validate(**payload).to_dict()


def _knock(payload: Payload, deadline: Deadline, settings: Settings) -> dict[str, Any]:
    return knock_check(deadline=deadline, **payload).to_dict()


def _gin_score(payload: Payload, deadline: Deadline, settings: Settings) -> dict[str, Any]:
    return gin_score(deadline=deadline, **payload).to_dict()


def _discard(payload: Payload, deadline: Deadline, settings: Settings) -> dict[str, Any]:
    return discard_hint(deadline=deadline, **payload).to_dict()


def _draw(payload: Payload, deadline: Deadline, settings: Settings) -> dict[str, Any]:
    return draw_hint(deadline=deadline, **payload).to_dict()


def _layoffs(payload: Payload, deadline: Deadline, settings: Settings) -> dict[str, Any]:
    return layoffs_hint(deadline=deadline, **payload).to_dict()


def _pile(payload: Payload, deadline: Deadline, settings: Settings) -> dict[str, Any]:
    return pile_hint(deadline=deadline, **payload).to_dict()


def _round(payload: Payload, deadline: Deadline, settings: Settings) -> dict[str, Any]:
    players = [PlayerHand(**player) for player in payload["players"]]
    return score_round(players, payload["variant"], wild_rank=payload["wild_rank"],
                       rules=payload["rules"], deadline=deadline).to_dict()


def _batch(payload: Payload, deadline: Deadline, settings: Settings) -> dict[str, Any]:
    from api.batch import solve_items

    return {"results": solve_items(payload["requests"], deadline, settings)}


OPERATIONS: dict[str, Callable[[Payload, Deadline, Settings], dict[str, Any]]] = {
    "solve": _solve,
    "batch": _batch,
    "validate": _validate,
    "knock": _knock,
    "gin_score": _gin_score,
    "hint_discard": _discard,
    "hint_draw": _draw,
    "layoffs": _layoffs,
    "pile": _pile,
    "round": _round,
}


def _log_fields(data: dict[str, Any]) -> dict[str, Any]:
    """What the access log records of an answer (variant, engine, optimal)."""
    fields = {key: data[key] for key in ("variant", "engine", "optimal", "status")
              if isinstance(data.get(key), str | bool)}
    return fields


def run_job(op: str, payload: Payload, deadline_at: float, budget_ms: float,
            cancelled: Callable[[], bool], settings: Settings, request_id: str = "-") -> Answer:
    """Run one job (see the module docstring): ``(status, JSON body, log fields)``."""
    token = REQUEST_ID.set(request_id)
    try:
        deadline = Deadline(deadline_at, cancelled, Work(budget_ms * NODES_PER_MS))
        if op == "stream_line":
            return _stream_line(payload, deadline, settings)
        return _run(op, payload, deadline, settings)
    finally:
        REQUEST_ID.reset(token)


def _stream_line(payload: Payload, deadline: Deadline, settings: Settings) -> Answer:
    """One line of ``/v1/solve/stream``: exactly the ``rummy-solver bulk`` output
    line (``solver.bulk``; the line's own deadline, cut to the job's)."""
    limits = Limits(max_hand_cards=settings.max_hand_cards,
                    default_time_limit_ms=settings.default_time_limit_ms,
                    max_time_limit_ms=settings.max_time_limit_ms,
                    request_budget_ms=settings.request_budget_ms)
    try:
        data = answer_line(payload["line"], deadline, limits=limits)
        return 200, encode(data).encode(), {"ok": "result" in data}
    except Exception as exc:
        failure = solver_failure(exc, "a stream line")
        return 503, error_bytes("solver_error", failure.message), {}


def _run(op: str, payload: Payload, deadline: Deadline, settings: Settings) -> Answer:
    started = time.perf_counter()
    try:
        data = OPERATIONS[op](payload, deadline, settings)
    except RequestError as exc:
        return 422, dumps({"detail": [exc.to_dict()]}), {}
    except ValueError as exc:
        return 422, dumps({"detail": [domain_error(exc).to_dict()]}), {}
    except Exception as exc:
        failure = solver_failure(exc, op)
        return 503, error_bytes("solver_error", failure.message), {}
    data["elapsed_ms"] = round((time.perf_counter() - started) * 1000.0, 3)
    try:
        return 200, dumps(data), _log_fields(data)
    except (TypeError, ValueError) as exc:  # a result the wire format cannot carry is a bug
        failure = solver_failure(exc, f"serialising the answer of {op}")
        return 503, error_bytes("solver_error", failure.message), {}


def item_error(loc: Sequence[str | int], msg: str, type_: str) -> dict[str, Any]:
    """A batch slot's error: ``{"error": {"type", "msg", "loc"}}``."""
    return {"error": {"type": type_, "msg": msg, "loc": list(loc)}}
