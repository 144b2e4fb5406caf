"""What the tuner (``benchmarks.arena.core.tuning``) plays of the lay-down
games (Rummy 500, Rommy, basic rummy): a unit is a deal played once per seat
rotation between the advisor (at its default level, with the trial's
numbers) and a bot of the panel, two players, and the space of
``LayDownParams`` it searches.
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.arena.core import rotations
from benchmarks.arena.core.tuning import Dimension, TuningSpec
from benchmarks.arena.laydown.advisor_player import AdvisorPlayer, default_params
from benchmarks.arena.laydown.players import make_player
from benchmarks.arena.laydown.referee import Player
from benchmarks.arena.laydown.runner import RoundRecord, play_round
from benchmarks.arena.laydown.variants import VARIANTS, Variant

TUNED = "advisor_tuned"
"""The advisor with a trial's numbers, as the table names it."""
PLAYERS = 2

SPACE: tuple[Dimension, ...] = (
    Dimension("link_weight", 3, 12, integer=True),
    Dimension("deep_look", 3, 8, integer=True),
    Dimension("drop_z", 1.5, 3.5),
    Dimension("least", 3, 10, integer=True),
)
"""The fields searched: the fast player's worth of a kept card and its look
into the pile (its playouts), the search's dropping of moves."""
BASIC_SPACE = tuple(d for d in SPACE if d.field != "deep_look")
"""Basic rummy takes the pile's top card only: no deeper look to tune."""


def _round(deck: tuple[int, ...], seats: list[str], seeds: list[int], *, variant: Variant,
           params: object, level: str) -> RoundRecord:
    players: Sequence[Player] = [AdvisorPlayer(level, params=params, name=TUNED) if name == TUNED
                                 else make_player(name, variant.label) for name in seats]
    return play_round(deck, seats, seeds, players, variant)


@dataclass(frozen=True, slots=True)
class LayDownBench:
    """A rotated deal of ``game`` at two players (``Bench``)."""

    game: str
    level: str = "standard"

    def play_unit(self, params: object, opponent: str, seed: int, index: int) -> float:
        """The advisor's points per round of deal ``index`` against ``opponent``."""
        variant = VARIANTS[self.game]
        play = functools.partial(_round, variant=variant, params=params, level=self.level)
        rounds = rotations.play_deal(variant.name, variant.cards_for(PLAYERS), [TUNED, opponent],
                                     seed, index, play)
        return statistics.fmean(r.points(r.seats.index(TUNED)) for r in rounds)


SPECS = {name: TuningSpec(name, LayDownBench(name), BASIC_SPACE if name == "basic" else SPACE,
                          default_params(name), "deal", 40, "points per deal")
         for name in ("rummy500", "rommy", "basic")}
"""The lay-down games' tuning: 40 deals a trial by default."""
