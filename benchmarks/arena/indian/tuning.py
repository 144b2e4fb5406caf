"""What the tuner (``benchmarks.arena.core.tuning``) plays of Indian rummy: a
unit is a deal played once per seat rotation between the advisor (at its
default level, with the trial's numbers) and a bot of the panel, two
players, and the space of ``IndianParams`` it searches.
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.arena.core import rotations
from benchmarks.arena.core.tuning import Dimension, TuningSpec
from benchmarks.arena.indian.players import AdvisorPlayer, Player, default_params, make_player
from benchmarks.arena.indian.runner import GameRecord, play_game
from benchmarks.arena.indian.variants import INDIAN13, INDIAN21, VARIANTS, IndianVariant

TUNED = "advisor_tuned"
"""The advisor with a trial's numbers, as the table names it."""

SPACE: tuple[Dimension, ...] = (
    Dimension("count_decay", 0.0, 0.06),
    Dimension("count_floor", 0.3, 0.9),
    Dimension("outs_weight", 0.5, 1.2),
    Dimension("pile_help", 0.0, 0.15),
    Dimension("threw_a_fitting_card", 0.1, 0.8),
    Dimension("passed_a_fitting_card", 0.1, 0.8),
)
"""The fields searched: what a loser is charged, the race's first step, the
worlds' weights."""


def _game(deck: tuple[int, ...], seats: list[str], seeds: list[int], *, variant: IndianVariant,
          params: object, level: str) -> GameRecord:
    players: Sequence[Player] = [AdvisorPlayer(level, params=params, name=TUNED) if name == TUNED
                                 else make_player(name) for name in seats]
    return play_game(deck, seats, seeds, variant.rules, players, variant)


@dataclass(frozen=True, slots=True)
class IndianBench:
    """A rotated deal of ``game`` (``Bench``)."""

    game: str
    level: str = "standard"

    def play_unit(self, params: object, opponent: str, seed: int, index: int) -> float:
        """The advisor's points per game of deal ``index`` against ``opponent``."""
        variant = VARIANTS[self.game]
        play = functools.partial(_game, variant=variant, params=params, level=self.level)
        games = rotations.play_deal(variant.seeds, variant.deck, [TUNED, opponent], seed, index,
                                    play)
        return statistics.fmean(g.points(g.seats.index(TUNED)) for g in games)


SPECS = {variant.game: TuningSpec(variant.game, IndianBench(variant.game), SPACE,
                                  default_params(variant.game), "deal", 50, "points per deal")
         for variant in (INDIAN13, INDIAN21)}
"""Indian rummy's tuning: 50 deals a trial by default."""
