"""What a player's own turns say about how it plays, for the review's playouts.

The lay-down advisor's playouts continue every player as a fast player that
lays each meld the turn it has it.  A player that holds its melds -- for a
rummy (basic rummy pays it double) or to give the others nothing to lay off
on -- then has each turn it holds judged as one held turn followed by a
player that lays everything: a plan the playouts break off, charged again
at every turn.  So a lay-down player that has laid nothing yet in the round
and kept, at ``holds`` earlier turns or more, a meld it could have laid (a
meld the fast player finds in its hand, ``solver.play.laydown.fast``) is
reviewed with playouts in which it goes on holding
(``LayDownParams.own_hold_rounds``): a hold is then weighed against laying
as a plan.  Only the player's own cards and turns are read: what it knew.

>>> from solver.play.advice import Move
>>> from solver.review.table import Decision
>>> held = Decision(0, 1, 1, (0, 1, 2, 30, 44), Move("discard", 44))  # AS 2S 3S 5D 6C
>>> laid = Decision(0, 3, 5, (0, 1, 2, 30, 31), Move("discard", 31, ((0, 1, 2),)))
>>> draw = Decision(0, 0, 0, (0, 1, 2, 30), Move("draw_stock"))
>>> holding_decisions("basic", [draw, held, draw, held, draw, held, laid, draw], holds=2)
frozenset({4, 5, 6})
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.play.laydown.fast import FastPlayer
from solver.play.laydown.variant import VARIANTS
from solver.play.words import DRAW_STOCK, PASS, TAKE_DISCARD
from solver.review.table import Decision


def holding_decisions(game: str, decisions: Sequence[Decision], holds: int) -> frozenset[int]:
    """The numbers of the ``decisions`` (a walked record's, in order) made
    by a player that holds its melds: in a lay-down game, one that has laid
    no card yet in the round and kept a meld it could lay at ``holds``
    earlier turns or more (none in other games, or with ``holds`` 0)."""
    variant = VARIANTS.get(game)
    if variant is None or holds < 1:
        return frozenset()
    fast = FastPlayer(variant.values, variant.deep_takes)
    kept: dict[int, int] = {}
    laid: set[int] = set()
    found: set[int] = set()
    for number, decision in enumerate(decisions):
        seat, move = decision.seat, decision.move
        if seat not in laid and kept.get(seat, 0) >= holds:
            found.add(number)
        if move.action in (DRAW_STOCK, TAKE_DISCARD, PASS):
            continue
        if move.melds or move.layoffs:
            laid.add(seat)
        elif fast.melds(decision.hand)[0]:
            kept[seat] = kept.get(seat, 0) + 1
    return frozenset(found)


__all__ = ["holding_decisions"]
