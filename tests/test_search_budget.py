"""The one search's budgets: a ``playouts`` count, and a ``turns`` budget that
gives a position with short playouts more of them (``Level.turns``).

The decisions here are made up: each move's playouts take a known number of
turns and score by a fixed random law, so what the search spends can be
counted against what the level allows."""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence

import pytest

from solver.deadline import Deadline
from solver.play.advice import Move
from solver.play.search import Budget, Level, Outcome, Spending, Tally, TurnCounting, spend


class MadeUpDecision:
    """``moves`` moves whose playouts last ``length(rng)`` turns (the move
    counting as one) and score the move's index plus noise."""

    def __init__(self, length: int | tuple[int, int], seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.length = length
        self.playouts = 0
        self.turns = 0

    def sample(self, count: int, until: float) -> list[int]:
        return [self.rng.randrange(1 << 30) for _ in range(count)]

    def play(self, move: Move, lines: Sequence[Hashable], world: int) -> list[Outcome]:
        deal = random.Random(world * 1000 + (move.card or 0))
        low, high = (self.length, self.length) if isinstance(self.length, int) \
            else self.length
        self.playouts += 1
        self.turns += deal.randint(low, high)
        points = float(move.card or 0) + deal.gauss(0.0, 20.0)
        return [(points, 1.0 if points > 0 else 0.0)] * len(lines)

    @staticmethod
    def utility(points: float) -> float:
        return points

    def turns_played(self) -> int:
        return self.turns


def searched(decision: MadeUpDecision, level: Level, moves: int) -> list[Tally]:
    tallies = [Tally(Move("discard", card)) for card in range(moves)]
    complete = spend(decision, tallies, [], Budget(level, Deadline.never()), Spending(),
                     math.inf)
    assert complete
    return tallies


def test_the_made_up_decision_counts_its_turns() -> None:
    assert isinstance(MadeUpDecision(5), TurnCounting)


@pytest.mark.parametrize("moves", [2, 5, 14])
@pytest.mark.parametrize("length", [4, 10, (1, 30)])
def test_a_turns_budget_plays_about_the_turns_it_allows(moves: int, length: int | tuple[int, int]
                                                         ) -> None:
    """Neither far short of the budget nor past it by more than a few
    playouts, whatever the moves and however long the playouts."""
    decision = MadeUpDecision(length)
    searched(decision, Level("standard", playouts=20, turns=4000), moves)
    mean = decision.turns / decision.playouts
    assert 0.8 * 4000 <= decision.turns <= 4000 + 3 * moves * mean


@pytest.mark.parametrize("moves", [2, 14])
def test_long_playouts_keep_the_levels_playouts_as_the_least(moves: int) -> None:
    """Playouts of 100 turns: a budget of 4,000 turns allows 40; the level's
    200 are shared out all the same, as many as without a turn budget."""
    counted, timed = MadeUpDecision(100), MadeUpDecision(100)
    searched(counted, Level("standard", playouts=200), moves)
    searched(timed, Level("standard", playouts=200, turns=4000), moves)
    assert timed.playouts >= counted.playouts


def test_shorter_playouts_get_more_of_them() -> None:
    short, long = MadeUpDecision(5), MadeUpDecision(20)
    level = Level("standard", playouts=20, turns=4000)
    searched(short, level, 6)
    searched(long, level, 6)
    assert short.playouts > 3 * long.playouts


def test_without_a_turn_budget_the_playouts_are_what_they_were() -> None:
    """A decision that counts turns is searched by playouts alone when the
    level has no turn budget: the same deals as one that does not count."""

    class Uncounted:
        def __init__(self) -> None:
            self.inner = MadeUpDecision(7)

        def sample(self, count: int, until: float) -> list[int]:
            return self.inner.sample(count, until)

        def play(self, move: Move, lines: Sequence[Hashable], world: int) -> list[Outcome]:
            return self.inner.play(move, lines, world)

        @staticmethod
        def utility(points: float) -> float:
            return points

    level = Level("standard", playouts=150)
    plain, counting = Uncounted(), MadeUpDecision(7)
    with_count = [t.points for t in searched(counting, level, 9)]
    tallies = [Tally(Move("discard", card)) for card in range(9)]
    assert spend(plain, tallies, [], Budget(level, Deadline.never()), Spending(), math.inf)
    assert [t.points for t in tallies] == with_count


def test_a_turns_budget_is_reproducible_for_a_seed() -> None:
    level = Level("standard", playouts=20, turns=3000)
    first = [t.points for t in searched(MadeUpDecision((1, 30), seed=4), level, 7)]
    again = [t.points for t in searched(MadeUpDecision((1, 30), seed=4), level, 7)]
    assert first == again


def test_the_better_move_comes_out_ahead_under_a_turns_budget() -> None:
    tallies = searched(MadeUpDecision(6), Level("standard", playouts=20, turns=6000), 8)
    best = max(tallies, key=lambda t: (t.stage, t.mean()))
    assert best.move.card == 7
