"""Request -> library call -> response, shared by the single and batch routes.

These functions are synchronous and CPU-bound: routes call them from plain
``def`` handlers, which FastAPI runs in its threadpool, so the event loop
keeps serving other requests (``/healthz`` among them) meanwhile.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from api.errors import RequestError, SolverFailure, domain_error, json_safe, solver_failure
from api.schemas import (
    BatchItemError,
    ErrorItem,
    SolveRequest,
    SolveResponse,
    ValidateRequest,
    ValidateResponse,
    rules_overrides,
)
from api.settings import Settings
from solver.solve import solve
from solver.validate import validate

__all__ = [
    "check_solve_limits",
    "solve",
    "solve_batch_items",
    "solve_one",
    "validate",
    "validate_one",
]

Loc = Sequence[str | int]


def _elapsed_ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)


def check_solve_limits(request: SolveRequest, settings: Settings, prefix: Loc = ("body",)) -> int:
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
            f"time_limit_ms is {request.time_limit_ms}; at most {settings.max_time_limit_ms} is allowed",
            "time_limit_too_large",
        )
    return request.time_limit_ms


def solve_one(
    request: SolveRequest,
    settings: Settings,
    *,
    prefix: Loc = ("body",),
    budget_ms: int | None = None,
) -> SolveResponse:
    """Solve one request.

    Raises ``RequestError`` (the request's fault, 422) or ``SolverFailure``
    (the solver's, 503).  ``budget_ms`` further caps the time limit (batches).
    """
    time_limit_ms = check_solve_limits(request, settings, prefix)
    if budget_ms is not None:
        time_limit_ms = max(1, min(time_limit_ms, budget_ms))
    start = time.perf_counter()
    try:
        solution = solve(
            list(request.hand),
            request.variant,
            wild_rank=request.wild_rank,
            discard=request.discard,
            rules=rules_overrides(request.rules),
            engine=request.engine,
            time_limit_ms=time_limit_ms,
        )
    except ValueError as exc:
        raise domain_error(exc, prefix) from exc
    except Exception as exc:
        raise solver_failure(exc, "solve") from exc
    elapsed_ms = _elapsed_ms(start)
    try:
        return SolveResponse.model_validate({**solution.to_dict(), "elapsed_ms": elapsed_ms})
    except Exception as exc:  # a Solution the wire format cannot carry is a solver bug
        raise solver_failure(exc, "serialising a solution") from exc


def _item_error(loc: Loc, msg: str, type_: str) -> BatchItemError:
    # json_safe: the loc may hold a key straight from the request (a lone surrogate...).
    return BatchItemError(error=ErrorItem(type=type_, msg=json_safe(msg), loc=json_safe(list(loc))))


def solve_batch_items(items: Sequence[Any], settings: Settings) -> list[SolveResponse | BatchItemError]:
    """Solve each item in order; a bad item yields an error in its slot.

    The batch shares ``settings.batch_budget_ms`` of solving time: each item's
    time limit is capped by what is left, and items reached after the budget
    is spent are not solved (``batch_budget_exceeded``).
    """
    if len(items) > settings.max_batch:
        raise RequestError(
            ["body", "requests"],
            f"batch has {len(items)} requests; at most {settings.max_batch} are allowed",
            "batch_too_large",
        )
    start = time.perf_counter()
    results: list[SolveResponse | BatchItemError] = []
    for index, item in enumerate(items):
        prefix: Loc = ("body", "requests", index)
        try:
            request = SolveRequest.model_validate(item)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            results.append(_item_error([*prefix, *first["loc"]], first["msg"], first["type"]))
            continue
        remaining_ms = settings.batch_budget_ms - int((time.perf_counter() - start) * 1000.0)
        if remaining_ms < 1:
            results.append(
                _item_error(
                    list(prefix),
                    f"not solved: the batch spent its {settings.batch_budget_ms} ms budget "
                    "(RUMMY_SOLVER_BATCH_BUDGET_MS) on earlier requests",
                    "batch_budget_exceeded",
                )
            )
            continue
        try:
            results.append(solve_one(request, settings, prefix=prefix, budget_ms=remaining_ms))
        except RequestError as exc:
            results.append(_item_error(exc.loc, exc.msg, exc.type))
        except SolverFailure as exc:
            results.append(_item_error(list(prefix), exc.message, "solver_error"))
    return results


def validate_one(request: ValidateRequest, settings: Settings) -> ValidateResponse:
    """Check and score a declared arrangement (``solver.validate``)."""
    total = sum(len(meld) for meld in request.melds) + len(request.deadwood)
    if total > settings.max_hand_cards:
        raise RequestError(
            ["body", "melds"],
            f"melds and deadwood hold {total} cards; at most {settings.max_hand_cards} are allowed",
            "hand_too_large",
        )
    if request.hand is not None and len(request.hand) > settings.max_hand_cards:
        raise RequestError(
            ["body", "hand"],
            f"hand has {len(request.hand)} cards; at most {settings.max_hand_cards} are allowed",
            "hand_too_large",
        )
    try:
        report = validate(
            [list(meld) for meld in request.melds],
            list(request.deadwood),
            request.variant,
            wild_rank=request.wild_rank,
            rules=rules_overrides(request.rules),
            hand=None if request.hand is None else list(request.hand),
        )
    except ValueError as exc:
        raise domain_error(exc) from exc
    except Exception as exc:
        raise solver_failure(exc, "validate") from exc
    try:
        return ValidateResponse.model_validate(report.to_dict())
    except Exception as exc:
        raise solver_failure(exc, "serialising a validation report") from exc
