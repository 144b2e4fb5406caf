"""The Indian advisor's race model (``solver.play.indian.race``) and the
benchmark that measures its step chances (``benchmarks.speed.indian_steps``)."""

from __future__ import annotations

import pytest

from benchmarks.speed.indian_steps import measure
from solver.play.indian.race import race, turns


def mean_turn(law: tuple[float, ...]) -> float:
    return sum(t * p for t, p in enumerate(law)) / sum(law)


def test_a_nearer_hand_declares_sooner() -> None:
    means = [mean_turn(turns(d)) for d in range(1, 8)]
    assert means == sorted(means)
    assert all(0.98 < sum(turns(d)) <= 1.0 + 1e-9 for d in range(8))


def test_a_hand_that_can_show_declares_on_its_next_turn() -> None:
    assert turns(0)[1] == 1.0


def test_its_own_outs_set_the_first_step() -> None:
    assert mean_turn(turns(2, 0.9)) < mean_turn(turns(2)) < mean_turn(turns(2, 0.05))


def test_the_nearer_player_is_likelier_to_declare_first() -> None:
    near, far = race([turns(1), turns(4)], 40)
    assert near > far > 0.0
    first, second = race([turns(2), turns(2)], 40)
    assert first > second  # the same distance: who plays first leads


@pytest.mark.parametrize("game", ["indian13", "indian21"])
def test_the_measurement_counts_every_turn(game: str) -> None:
    """The measurement sees turns at the distances a dealt hand has and keeps
    each chance within a turn's reach; seeded, so a rerun gives the same
    figures."""
    measured = measure(game, 3, seed=4)
    assert measured == measure(game, 3, seed=4)
    assert 1 in measured and sum(n for n, _ in measured.values()) > 20
    for distance, (turns_seen, chance) in measured.items():
        assert turns_seen > 0 and 0.0 <= chance <= max(distance, 1)
