"""Indian rummy (13 and 21 cards) as the advisor's game model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from solver.deadline import Deadline
from solver.errors import InvalidRulesError, InvalidStateError
from solver.play.advice import Advice, Move
from solver.play.indian.advisor import LEVELS, IndianDecision
from solver.play.indian.params import INDIAN_PARAMS, IndianParams
from solver.play.indian.state import IndianState
from solver.play.model import Game, Request
from solver.play.search import Level, Tally
from solver.play.words import INDIAN, GameWords
from solver.rules import Deal, make_deal, make_rules

DEFAULT_PLAYERS = 2


@dataclass(frozen=True, slots=True)
class IndianPosition:
    """A checked Indian state, its deal (the cut card fixes the wild cards)
    and the caller's cut card and knobs as given (the exact solver is asked
    with them)."""

    state: IndianState
    deal: Deal
    wild_rank: str
    overrides: dict[str, Any] | None


class Indian13(Game[IndianPosition, IndianParams]):
    """13-card Indian rummy: 2 to 6 players, the cut card's rank wild, drops."""

    name: ClassVar[str] = "indian13"
    words: ClassVar[GameWords] = INDIAN
    levels: ClassVar[Mapping[str, Level]] = LEVELS
    takes: ClassVar[tuple[str, ...]] = ("wild_rank", "players")
    refuses: ClassVar[Mapping[str, str]] = {"score": "no match score (each deal is scored alone)",
               "oklahoma": "no knock limit"}
    knobs: ClassVar[tuple[str, ...]] = (
        "decks", "jokers_per_deck", "printed_jokers_wild", "cut_joker", "neighbour_jokers",
        "joker_cut_makes_aces_wild", "ace", "max_set_size", "tanala", "min_naturals_per_meld",
        "max_wilds_per_meld", "requirements", "min_sequences", "min_pure_sequences",
        "penalty_tiers", "points_cap", "drop_first", "drop_middle", "wrong_declaration",
        "ace_points", "pip_points", "court_points", "joker_points", "wild_cards_score_zero",
        "card_points", "value_cards", "value_card_points", "marriage_points")
    params = INDIAN_PARAMS

    def position(self, request: Request, deadline: Deadline | None = None) -> IndianPosition:
        """Check and replay the state (``IndianState.parse``)."""
        rules = make_rules(self.name, request.rules)
        if not rules.cut_joker:  # the advisor's deal always has a cut card (wild_rank)
            raise InvalidRulesError("cut_joker", f"cut_joker: the {self.name} advisor plays "
                                                 "with a cut card (wild_rank), so cut_joker "
                                                 "must stay true")
        wild_rank = request.get("wild_rank")
        if wild_rank is None:
            raise InvalidStateError(f"{self.name} needs wild_rank: the cut card ('7H', '7' or "
                                    "'JK')", code="missing", loc=("wild_rank",))
        deal = make_deal(rules, wild_rank)
        players = request.get("players")
        state = IndianState.parse(game=self.name, deal=deal,
                                  players=DEFAULT_PLAYERS if players is None else players,
                                  me=request.me, dealer=request.dealer, hand=request.hand,
                                  upcard=request.upcard, history=request.history,
                                  discard_pile=request.discard_pile,
                                  stock_count=request.stock_count, deadline=deadline)
        overrides = None if request.rules is None else dict(request.rules)
        return IndianPosition(state, deal, wild_rank, overrides)

    def advise(self, position: IndianPosition, params: IndianParams, level: Level, seed: int,
               deadline: Deadline, consider: Sequence[Move] = ()) -> Advice:
        """Every legal move valued and ranked (``IndianDecision``)."""
        return IndianDecision(position.state, position.deal, position.wild_rank,
                              position.overrides, self.budget(level, deadline), seed,
                              params).advise(consider)

    def compare(self, position: IndianPosition, params: IndianParams, seed: int,
                deadline: Deadline, moves: Sequence[Move], deals: int) -> list[Tally] | None:
        """``moves`` on the same ``deals`` fresh deals (``IndianDecision.compare``)."""
        return IndianDecision(position.state, position.deal, position.wild_rank,
                              position.overrides, self.budget(Level("compare", worlds=deals),
                                                              deadline), seed,
                              params).compare(moves)


class Indian21(Indian13):
    """21-card Indian rummy: three decks, the cut card's neighbours wild too."""

    name: ClassVar[str] = "indian21"


__all__ = ["Indian13", "Indian21", "IndianPosition"]
