"""The Indian rummy advisor (``indian13``, ``indian21``).

* ``state`` -- the public state of a deal, checked and replayed;
* ``hands`` -- how far a hand is from a declaration, fast (the packing);
* ``policy`` -- a fast player on the packing (the model of the others);
* ``worlds`` -- the hidden cards dealt out, weighted by what the others did;
* ``race`` -- the rest of a deal as a race between distances;
* ``advisor`` -- every legal move valued over the worlds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solver.deadline import Deadline
from solver.errors import InvalidStateError
from solver.play.advice import Advice
from solver.play.indian.advisor import LEVELS, IndianAdvisor
from solver.play.indian.state import IndianState
from solver.rules import make_deal, make_rules

DEFAULT_PLAYERS = 2


def advise_indian(game: str, *, hand: object, upcard: object, history: Sequence[object] | None,
                  me: int, dealer: int, discard_pile: object, stock_count: int | None,
                  rules: Mapping[str, Any] | None, wild_rank: str | None, players: int | None,
                  level: str, seed: int, deadline: Deadline) -> Advice:
    """``solver.play.advise`` for an Indian game (its arguments checked there)."""
    if wild_rank is None:
        raise InvalidStateError(f"{game} needs wild_rank: the cut card ('7H', '7' or 'JK')",
                                code="missing", loc=("wild_rank",))
    deal = make_deal(make_rules(game, rules), wild_rank)
    state = IndianState.parse(game=game, deal=deal,
                              players=DEFAULT_PLAYERS if players is None else players, me=me,
                              dealer=dealer, hand=hand, upcard=upcard, history=history,
                              discard_pile=discard_pile, stock_count=stock_count)
    overrides = None if rules is None else dict(rules)
    return IndianAdvisor(state, deal, wild_rank, overrides, LEVELS[level], seed, deadline).advise()


__all__ = ["LEVELS", "advise_indian"]
