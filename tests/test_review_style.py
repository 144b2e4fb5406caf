"""A player's style read from its own turns: the arena's ``hoarder`` (which
holds its melds until it can go out) is told apart from ``greedy`` and
``careful`` (which lay each meld at once) on rounds the arena's referee
played -- players written apart from ``solver``'s fast player."""

from __future__ import annotations

import functools

import pytest

from benchmarks.arena.core import rotations
from benchmarks.arena.laydown.records import round_record
from benchmarks.arena.laydown.runner import play_round
from benchmarks.arena.laydown.variants import BASIC, ROMMY, RUMMY500, Variant
from solver.play.laydown.params import LAY_DOWN_PARAMS, LayDownParams
from solver.review import REVIEW_PARAMS
from solver.review.style import holding_decisions
from solver.review.table import read_record, walk


def _flagged(variant: Variant, lineup: tuple[str, ...], deals: int) -> dict[str, int]:
    """Decisions reviewed as a holder's, by player, over ``deals`` deals."""
    play = functools.partial(play_round, variant=variant)
    flagged = dict.fromkeys(lineup, 0)
    for deal in rotations.play_deals(variant.name, variant.cards_for(len(lineup)), lineup,
                                     play, deals, seed=11, progress=False):
        for game in deal:
            record = read_record(round_record(game, variant))
            decisions = walk(record).decisions
            for number in holding_decisions(record.game, decisions, REVIEW_PARAMS.holder_holds):
                flagged[record.players[decisions[number].seat]] += 1
    return flagged


@pytest.mark.parametrize("variant", [RUMMY500, ROMMY, BASIC], ids=lambda v: v.name)
def test_the_hoarder_is_read_as_a_holder_the_layers_never(variant: Variant) -> None:
    flagged = _flagged(variant, ("hoarder", "greedy", "careful"), 2)
    assert flagged["hoarder"] > 0
    assert flagged["greedy"] == flagged["careful"] == 0


def test_no_game_but_the_lay_down_games_has_holders() -> None:
    assert holding_decisions("gin", (), 2) == frozenset()
    assert holding_decisions("indian13", (), 2) == frozenset()


def test_a_holders_playouts_hold_and_the_advice_does_not() -> None:
    held = REVIEW_PARAMS.holder_params("basic")
    assert isinstance(held, LayDownParams)
    assert held.own_hold_rounds == REVIEW_PARAMS.holder_rounds >= 1
    assert LAY_DOWN_PARAMS.own_hold_rounds == 0  # advise() plays as before
    with pytest.raises(ValueError, match="not a lay-down game"):
        REVIEW_PARAMS.holder_params("gin")
