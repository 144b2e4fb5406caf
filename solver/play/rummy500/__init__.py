"""The Rummy 500 advisor (``rummy500``, 2 to 4 players, one deck).

* ``state`` -- the public state of a round, checked and replayed;
* ``fast`` -- a fast player: the model of everyone in the playouts;
* ``advisor`` -- every legal move valued by playing the round out over dealt worlds.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.deadline import Deadline
from solver.play.advice import Advice
from solver.play.rummy500.advisor import LEVELS, Rummy500Advisor
from solver.play.rummy500.state import Rummy500State, rummy500_deal

DEFAULT_PLAYERS = 2


def advise_rummy500(*, hand: object, upcard: object, history: Sequence[object] | None, me: int,
                    dealer: int, discard_pile: object, stock_count: int | None,
                    players: int | None, level: str, seed: int, deadline: Deadline) -> Advice:
    """``solver.play.advise`` for Rummy 500 (its arguments checked there)."""
    deal = rummy500_deal()
    state = Rummy500State.parse(players=DEFAULT_PLAYERS if players is None else players, me=me,
                                dealer=dealer, hand=hand, upcard=upcard, history=history,
                                discard_pile=discard_pile, stock_count=stock_count, deal=deal)
    return Rummy500Advisor(state, deal, LEVELS[level], seed, deadline).advise()


__all__ = ["LEVELS", "advise_rummy500"]
