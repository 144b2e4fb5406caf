"""The playout player's self-play benchmark (benchmarks.arena.laydown.fast_selfplay)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from benchmarks.arena.laydown.fast_selfplay import _deck, compare, main, play_round
from solver.play.laydown.fast import FastPlayer
from solver.play.laydown.params import LAY_DOWN_PARAMS
from solver.play.laydown.variant import VARIANTS


@pytest.mark.parametrize("game", ["basic", "rummy500"])
def test_equal_players_on_mirrored_rounds_come_out_level(game: str) -> None:
    assert compare(game, LAY_DOWN_PARAMS, LAY_DOWN_PARAMS, rounds=30).mean == 0.0


def test_a_basic_round_is_paid_by_the_hand_left() -> None:
    """Collect scoring: seat 0's margin is what one side holds at the end,
    never both; a round is the same from the same deck."""
    values = VARIANTS["basic"].values
    players = [FastPlayer(values, False), FastPlayer(values, False)]
    margins = [play_round("basic", players, _deck("basic", random.Random(i))) for i in range(40)]
    assert any(m > 0 for m in margins) and any(m < 0 for m in margins)
    assert margins == [play_round("basic", players, _deck("basic", random.Random(i)))
                       for i in range(40)]


def test_not_feeding_the_next_player_wins_the_playouts() -> None:
    careful = dataclasses.replace(LAY_DOWN_PARAMS, feed_care=30)
    assert compare("basic", careful, LAY_DOWN_PARAMS, rounds=200).mean > 1


def test_an_unknown_field_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--field", "no_such_field", "--values", "1"]) == 2
    assert "no field 'no_such_field'" in capsys.readouterr().err
