"""Rummy 500, Rommy and basic rummy as the advisor's game model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from solver.deadline import Deadline
from solver.play.advice import Advice, Move
from solver.play.laydown.advisor import LEVELS_BY_GAME, LayDownDecision
from solver.play.laydown.params import PARAMS_BY_GAME, LayDownParams
from solver.play.laydown.state import LayDownState
from solver.play.laydown.variant import HOUSE_KNOBS, VARIANTS
from solver.play.model import Game, Request
from solver.play.search import Level, Tally
from solver.play.words import LAY_DOWN, GameWords

DEFAULT_PLAYERS = 2


class Rummy500(Game[LayDownState, LayDownParams]):
    """Rummy 500: 2 to 8 players (two decks from 5), deep pile takes, laid points less hand
    points."""

    name: ClassVar[str] = "rummy500"
    words: ClassVar[GameWords] = LAY_DOWN
    levels: ClassVar[Mapping[str, Level]] = LEVELS_BY_GAME["rummy500"]
    takes: ClassVar[tuple[str, ...]] = ("players",)
    refuses: ClassVar[Mapping[str, str]] = {"score": "no match score (each round is scored alone)",
               "oklahoma": "no knock limit", "wild_rank": "no cut card (the jokers are wild)"}
    knobs: ClassVar[tuple[str, ...]] = HOUSE_KNOBS
    params = PARAMS_BY_GAME["rummy500"]

    def position(self, request: Request, deadline: Deadline | None = None) -> LayDownState:
        """Check and replay the state (``LayDownState.parse``) under the
        game's variant with a house's knobs (``Variant.with_rules``)."""
        variant = VARIANTS[self.name].with_rules(request.rules)
        players = request.get("players")
        return LayDownState.parse(players=DEFAULT_PLAYERS if players is None else players,
                                  me=request.me, dealer=request.dealer, hand=request.hand,
                                  upcard=request.upcard, history=request.history,
                                  discard_pile=request.discard_pile,
                                  stock_count=request.stock_count, variant=variant,
                                  deadline=deadline)

    def advise(self, position: LayDownState, params: LayDownParams, level: Level, seed: int,
               deadline: Deadline, consider: Sequence[Move] = ()) -> Advice:
        """Every legal move valued and ranked (``LayDownDecision``)."""
        return LayDownDecision(position, self.budget(level, deadline), seed,
                               params).advise(consider)

    def compare(self, position: LayDownState, params: LayDownParams, seed: int,
                deadline: Deadline, moves: Sequence[Move], deals: int) -> list[Tally] | None:
        """``moves`` on the same ``deals`` fresh deals (``LayDownDecision.compare``)."""
        level = Level("compare", worlds=deals)
        return LayDownDecision(position, self.budget(level, deadline), seed,
                               params).compare(moves)


class Rommy(Rummy500):
    """Rommy, the Danish 500: 2 to 6 players, a pile penalty, every turn ends with a throw."""

    name: ClassVar[str] = "rommy"
    levels: ClassVar[Mapping[str, Level]] = LEVELS_BY_GAME["rommy"]
    params = PARAMS_BY_GAME["rommy"]


class Basic(Rummy500):
    """Basic rummy: 2 to 6 players, 52 cards, the pile's top only, the winner collects."""

    name: ClassVar[str] = "basic"
    levels: ClassVar[Mapping[str, Level]] = LEVELS_BY_GAME["basic"]
    params = PARAMS_BY_GAME["basic"]


__all__ = ["Basic", "LayDownParams", "Rommy", "Rummy500"]
