"""What the tuner (``benchmarks.arena.core.tuning``) plays of gin: a unit is
a mirrored pair of single hands between the advisor (at its default level,
with the trial's numbers) and a bot of the panel, and the space of
``GinParams`` it searches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchmarks.arena.core.entrants import Entrant
from benchmarks.arena.core.tuning import Dimension, TuningSpec
from benchmarks.arena.gin.players.advisor import AdvisorPlayer, default_params
from benchmarks.arena.gin.players.registry import ENTRANTS
from benchmarks.arena.gin.runner import Arena

TUNED = "advisor_tuned"
"""The advisor with a trial's numbers, as the arena names it."""
PARAMS = default_params()


def _style_prior(at_once: float) -> object:
    """Today's two knock styles with ``at_once`` the chance of the first."""
    (first, _), (second, _) = PARAMS.style_prior
    return ((first, at_once), (second, 1.0 - at_once))


SPACE: tuple[Dimension, ...] = (
    Dimension("plain_z", 0.0, 3.0),
    Dimension("take_edge", 0.0, 5.0),
    Dimension("knock_risk", 0.1, 0.45),
    Dimension("lookahead", 0.0, 2.0),
    Dimension("danger", 0.0, 8.0),
    Dimension("practice_per_turn", 0.8, 2.2),
    Dimension("style_prior", 0.4, 0.95, build=_style_prior, read=lambda prior: prior[0][1],
              meaning="the chance the opponent knocks at once (the rest: plays for gin)"),
)
"""The fields searched: the search's plain-discard margin, the judgement's
weights, the imagined opponent's practice and style."""


@dataclass(frozen=True, slots=True)
class GinBench:
    """A mirrored pair of hands (``Bench``)."""

    level: str = "standard"

    def play_unit(self, params: object, opponent: str, seed: int, index: int) -> float:
        """The advisor's points per hand on pair ``index`` against ``opponent``."""
        level = self.level

        def make(_: Any) -> AdvisorPlayer:
            return AdvisorPlayer(level, params=params, name=TUNED)

        entrants = {**ENTRANTS, TUNED: Entrant(TUNED, "the advisor with a trial's numbers", make)}
        arena = Arena(TUNED, opponent, seed=seed, cross_check=False, entrants=entrants)
        return sum(arena.play_pair(index).points_for_a()) / 2


SPEC = TuningSpec("gin", GinBench(), SPACE, PARAMS, "hand pair", 150, "points per hand")
"""Gin's tuning: 150 hand pairs (300 hands) a trial by default."""
