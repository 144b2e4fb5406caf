"""Gin as the advisor's game model: the request it takes, its position, its decision."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from solver.deadline import Deadline
from solver.errors import InvalidStateError
from solver.gin import gin_deal, resolve_knock_limit
from solver.play.advice import Advice, Move
from solver.play.gin.advisor import LEVELS, GinDecision, hands_for
from solver.play.gin.params import GIN_PARAMS, GinParams
from solver.play.gin.state import GinState, check_knock, check_wall_take
from solver.play.model import Game, Request
from solver.play.search import Level
from solver.play.words import GIN, GameWords
from solver.rules import Deal


@dataclass(frozen=True, slots=True)
class GinPosition:
    """A checked gin state and the rules it is played under (its deal and
    knock limit: Oklahoma's first upcard may set it)."""

    state: GinState
    deal: Deal
    knock_limit: int | None


class Gin(Game[GinPosition, GinParams]):
    """Gin rummy: two players, a match score, Oklahoma's knock limit."""

    name: ClassVar[str] = "gin"
    words: ClassVar[GameWords] = GIN
    levels: ClassVar[Mapping[str, Level]] = LEVELS
    takes: ClassVar[tuple[str, ...]] = ("score", "oklahoma")
    refuses: ClassVar[Mapping[str, str]] = {"wild_rank": "no cut card", "players": "two players only"}
    knobs: ClassVar[tuple[str, ...]] = (
        "knock_limit", "gin_bonus", "undercut_bonus", "undercut_on_tie", "oklahoma_ace_knock",
        "ace_points", "pip_points", "court_points", "card_points")
    params = GIN_PARAMS

    def position(self, request: Request, deadline: Deadline | None = None) -> GinPosition:
        """Check and replay the state (``GinState.parse``)."""
        deal = gin_deal(request.rules)
        state = GinState.parse(me=request.me, dealer=request.dealer, hand=request.hand,
                               upcard=request.upcard, history=request.history,
                               discard_pile=request.discard_pile,
                               stock_count=request.stock_count, score=request.get("score"),
                               deadline=deadline)
        flag = request.get("oklahoma")
        if flag is not None and not isinstance(flag, bool):  # "false" is not False
            raise InvalidStateError(f"oklahoma must be true or false, not {type(flag).__name__}",
                                    code="invalid_state", loc=("oklahoma",))
        oklahoma = request.upcard if flag else None
        limit, _ = resolve_knock_limit(deal, upcard=oklahoma)  # type: ignore[arg-type]
        check_knock(state, deal, limit)
        check_wall_take(state, hands_for(deal), limit)
        return GinPosition(state, deal, limit)

    def advise(self, position: GinPosition, params: GinParams, level: Level, seed: int,
               deadline: Deadline, consider: Sequence[Move] = ()) -> Advice:
        """Every legal move valued and ranked (``GinDecision``)."""
        return GinDecision(position.state, position.deal, position.knock_limit,
                           self.budget(level, deadline), seed, params).advise(consider)


__all__ = ["Gin", "GinPosition"]
