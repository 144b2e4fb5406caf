"""The advisor of the lay-down games: ``rummy500`` (2 to 4 players with one
deck and two jokers, 5 to 8 with two), ``rommy`` (2 to 6; one deck and two
jokers), ``basic`` (2 to 6, 52 cards).

* ``variant`` -- what differs between the three games (and a house's knobs);
* ``state`` -- the public state of a round, checked and replayed;
* ``fast`` -- a fast player: the model of everyone in the playouts;
* ``advisor`` -- every legal move valued by playing the round out over dealt worlds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solver.deadline import Deadline
from solver.play.advice import Advice
from solver.play.laydown.advisor import LEVELS, LayDownAdvisor
from solver.play.laydown.state import LayDownState
from solver.play.laydown.variant import VARIANTS

DEFAULT_PLAYERS = 2


def advise_lay_down(game: str, *, hand: object, upcard: object,
                    history: Sequence[object] | None, me: int, dealer: int, discard_pile: object,
                    stock_count: int | None, players: int | None, level: str, seed: int,
                    deadline: Deadline, rules: Mapping[str, Any] | None = None) -> Advice:
    """``solver.play.advise`` for Rummy 500, Rommy or basic rummy (``game``;
    its arguments checked there); ``rules``: a house's knobs (``HOUSE_KNOBS``)."""
    state = LayDownState.parse(players=DEFAULT_PLAYERS if players is None else players, me=me,
                                dealer=dealer, hand=hand, upcard=upcard, history=history,
                                discard_pile=discard_pile, stock_count=stock_count,
                                variant=VARIANTS[game].with_rules(rules))
    return LayDownAdvisor(state, LEVELS[level], seed, deadline).advise()


__all__ = ["LEVELS", "VARIANTS", "advise_lay_down"]
