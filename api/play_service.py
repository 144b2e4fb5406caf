"""Request -> library call -> response for the play endpoints (gin, hints, scoring).

Like ``api.service``: synchronous, CPU-bound functions called from plain
``def`` handlers (FastAPI's threadpool).  Each call may run many solves: each
solve gets ``default_time_limit_ms`` and all of them together
``batch_budget_ms`` (``RUMMY_SOLVER_*``); past the budget answers come back
with ``optimal: false`` instead of running on.

Library errors become 422 with ``loc`` pointing at the field, including the
nested ones the play functions name (``players[1].melded[0]`` becomes
``["body", "players", 1, "melded", 0]``); anything else is a logged 503.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from api.errors import Loc, RequestError, domain_error, solver_failure
from api.schemas import rules_overrides
from api.schemas_play import (
    DiscardHintRequest,
    DiscardHintResponse,
    DrawHintRequest,
    DrawHintResponse,
    GinScoreRequest,
    GinScoreResponse,
    KnockRequest,
    KnockResponse,
    LayoffsRequest,
    LayoffsResponse,
    PileHintRequest,
    PileHintResponse,
    RoundScoreRequest,
    RoundScoreResponse,
)
from api.settings import Settings
from solver.gin import gin_score, knock_check
from solver.hints import discard_hint, draw_hint, layoffs_hint, pile_hint
from solver.round_scoring import PlayerHand, score_round

T = TypeVar("T")
R = TypeVar("R", bound=BaseModel)

def _run(what: str, call: Callable[[], T]) -> T:
    try:
        return call()
    except ValueError as exc:
        raise domain_error(exc) from exc
    except Exception as exc:
        raise solver_failure(exc, what) from exc


def _respond(model: type[R], what: str, data: dict[str, Any], start: float) -> R:
    elapsed_ms = round((time.perf_counter() - start) * 1000.0, 3)
    try:
        return model.model_validate({**data, "elapsed_ms": elapsed_ms})
    except Exception as exc:  # a result the wire format cannot carry is a solver bug
        raise solver_failure(exc, f"serialising {what}") from exc


def _limit(cards: Sequence[object], loc: Loc, settings: Settings) -> None:
    if len(cards) > settings.max_hand_cards:
        raise RequestError(
            loc, f"{loc[-1]} has {len(cards)} cards; at most {settings.max_hand_cards} are allowed",
            "hand_too_large",
        )


def _timing(settings: Settings) -> dict[str, int]:
    return {"time_limit_ms": settings.default_time_limit_ms, "budget_ms": settings.batch_budget_ms}


def knock(request: KnockRequest, settings: Settings) -> KnockResponse:
    """``POST /v1/gin/knock``."""
    _limit(request.hand, ["body", "hand"], settings)
    start = time.perf_counter()
    report = _run("gin knock", lambda: knock_check(
        list(request.hand), rules=rules_overrides(request.rules), knock_limit=request.knock_limit,
        upcard=request.upcard, **_timing(settings)))
    return _respond(KnockResponse, "a knock report", report.to_dict(), start)


def score(request: GinScoreRequest, settings: Settings) -> GinScoreResponse:
    """``POST /v1/gin/score``."""
    _limit(request.knocker, ["body", "knocker"], settings)
    _limit(request.defender, ["body", "defender"], settings)
    start = time.perf_counter()
    result = _run("gin score", lambda: gin_score(
        list(request.knocker), list(request.defender), rules=rules_overrides(request.rules),
        knock_limit=request.knock_limit, upcard=request.upcard, **_timing(settings)))
    return _respond(GinScoreResponse, "a gin score", result.to_dict(), start)


def discard(request: DiscardHintRequest, settings: Settings) -> DiscardHintResponse:
    """``POST /v1/hints/discard``."""
    _limit(request.hand, ["body", "hand"], settings)
    start = time.perf_counter()
    hint = _run("discard hint", lambda: discard_hint(
        list(request.hand), request.variant, wild_rank=request.wild_rank,
        rules=rules_overrides(request.rules), **_timing(settings)))
    return _respond(DiscardHintResponse, "a discard hint", hint.to_dict(), start)


def draw(request: DrawHintRequest, settings: Settings) -> DrawHintResponse:
    """``POST /v1/hints/draw``."""
    _limit(request.hand, ["body", "hand"], settings)
    start = time.perf_counter()
    hint = _run("draw hint", lambda: draw_hint(
        list(request.hand), request.discard_top, request.variant,
        seen=None if request.seen is None else list(request.seen), wild_rank=request.wild_rank,
        rules=rules_overrides(request.rules), **_timing(settings)))
    return _respond(DrawHintResponse, "a draw hint", hint.to_dict(), start)


def layoffs(request: LayoffsRequest, settings: Settings) -> LayoffsResponse:
    """``POST /v1/layoffs``."""
    _limit(request.hand, ["body", "hand"], settings)
    start = time.perf_counter()
    hint = _run("layoffs hint", lambda: layoffs_hint(
        list(request.hand), [list(meld) for meld in request.table], request.variant,
        wild_rank=request.wild_rank, rules=rules_overrides(request.rules), **_timing(settings)))
    return _respond(LayoffsResponse, "a layoffs hint", hint.to_dict(), start)


def pile(request: PileHintRequest, settings: Settings) -> PileHintResponse:
    """``POST /v1/hints/pile``."""
    _limit(request.hand, ["body", "hand"], settings)
    start = time.perf_counter()
    hint = _run("pile hint", lambda: pile_hint(
        list(request.hand), [list(meld) for meld in request.table], list(request.discard_pile),
        request.variant, wild_rank=request.wild_rank, rules=rules_overrides(request.rules),
        **_timing(settings)))
    return _respond(PileHintResponse, "a pile hint", hint.to_dict(), start)


def round_score(request: RoundScoreRequest, settings: Settings) -> RoundScoreResponse:
    """``POST /v1/score/round``."""
    players = []
    for i, player in enumerate(request.players):
        _limit(player.hand, ["body", "players", i, "hand"], settings)
        players.append(PlayerHand(
            hand=list(player.hand),
            melded=None if player.melded is None else [list(g) for g in player.melded],
            went_out=player.went_out, dropped=player.dropped, had_turn=player.had_turn,
            rummy=player.rummy, pile_penalties=player.pile_penalties,
        ))
    start = time.perf_counter()
    result = _run("round scoring", lambda: score_round(
        players, request.variant, wild_rank=request.wild_rank,
        rules=rules_overrides(request.rules), **_timing(settings)))
    return _respond(RoundScoreResponse, "a round score", result.to_dict(), start)
