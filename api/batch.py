"""``POST /v1/solve/batch`` inside a solver process: each item validated and
solved in order under the batch's one deadline; a bad item gets an error in
its slot."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from api.errors import RequestError, bounded, domain_error, solver_failure, stable_type
from api.jobs import item_error
from api.schemas import SolveRequest, rules_overrides
from api.settings import Settings
from solver.deadline import Deadline
from solver.solve import solve


def check_solve_limits(request: SolveRequest, settings: Settings,
                       prefix: Sequence[str | int] = ("body",)) -> int:
    """Enforce the hand size and time limits; returns the time limit to use (ms)."""
    if len(request.hand) > settings.max_hand_cards:
        raise RequestError(
            [*prefix, "hand"],
            f"hand has {len(request.hand)} cards; at most {settings.max_hand_cards} are allowed",
            "hand_too_large",
        )
    if request.time_limit_ms is None:
        return settings.default_time_limit_ms
    if request.time_limit_ms > settings.max_time_limit_ms:
        raise RequestError(
            [*prefix, "time_limit_ms"],
            f"time_limit_ms is {request.time_limit_ms}; at most {settings.max_time_limit_ms} "
            "is allowed (RUMMY_SOLVER_MAX_TIME_LIMIT_MS)",
            "time_limit_too_large",
        )
    return request.time_limit_ms


def solve_items(items: Sequence[Any], deadline: Deadline, settings: Settings) -> list[dict[str, Any]]:
    """Solve each item in order; items reached after the deadline are not
    solved (``batch_budget_exceeded``)."""
    results: list[dict[str, Any]] = []
    for index, item in enumerate(items):
        started = time.perf_counter()
        prefix: list[str | int] = ["body", "requests", index]
        try:
            request = SolveRequest.model_validate(item)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            results.append(item_error([*prefix, *bounded(list(first["loc"]))],
                                      bounded(first["msg"]), stable_type(first)))
            continue
        if deadline.expired():
            results.append(item_error(
                prefix, "not solved: the batch reached its deadline (its time_limit_ms, else "
                "RUMMY_SOLVER_REQUEST_BUDGET_MS, counted from its arrival) on earlier requests",
                "batch_budget_exceeded"))
            continue
        try:
            limit = check_solve_limits(request, settings, prefix)
            solution = solve(list(request.hand), request.variant, wild_rank=request.wild_rank,
                             discard=request.discard, rules=rules_overrides(request.rules),
                             engine=request.engine, deadline=deadline.within_ms(limit))
        except RequestError as exc:
            results.append(item_error(exc.loc, exc.msg, exc.type))
            continue
        except ValueError as exc:
            error = domain_error(exc, prefix)
            results.append(item_error(error.loc, error.msg, error.type))
            continue
        except Exception as exc:
            results.append(item_error(prefix, solver_failure(exc, "batch item").message,
                                      "solver_error"))
            continue
        answer = solution.to_dict()
        answer["elapsed_ms"] = round((time.perf_counter() - started) * 1000.0, 3)
        results.append(answer)
    return results
