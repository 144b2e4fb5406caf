"""The review's numbers as data: what a label means, per game, and how hard the advisor looks.

A decision's loss is the paired gap between the recommended move and the
move played (``solver.play.advice.MoveValue.gap``), in the units the
advisor ranked the moves by: points of the hand, or with a gin match score
the chance to win the match.  Each game has a **unit**, the points a hand
of it is typically worth between two good players, so that one threshold
serves every game: a loss of ``inaccuracy`` units or more is an
inaccuracy, ``mistake`` a mistake, ``blunder`` a blunder -- and only when
the gap is also beyond the noise (``z`` paired standard errors).  The
accuracy of a decision falls from 100 as its loss grows
(``100 * exp(-loss / (accuracy_scale * unit))``) and the performance
rating is the mean loss per decision in thousandths of a unit
(docs/REVIEW.md says why each number is what it is).

``REVIEW_PARAMS`` is what ``review`` uses; ``dataclasses.replace`` gives
other thresholds for an experiment.

>>> REVIEW_PARAMS.unit("gin"), REVIEW_PARAMS.threshold("gin", "points", "mistake")
(20.0, 2.4)
>>> REVIEW_PARAMS.threshold("gin", "match", "blunder")
0.05
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from solver.play.gin.params import GIN_PARAMS
from solver.play.indian.params import INDIAN_PARAMS
from solver.play.laydown.params import PARAMS_BY_GAME
from solver.play.model import GAMES
from solver.play.params import tuned
from solver.play.search import Level

Units = Literal["points", "match"]
LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""A decision's labels, best first."""
ERRORS = LABELS[2:]
REVIEW_LEVEL = "review"
"""The review's own level of each game (``ReviewParams.levels``), its default."""
"""The labels of a decision that lost more than the noise and the first threshold."""


PerGame = tuple[tuple[str, Any], ...]
"""A value per game, as pairs (a frozen parameters object holds no dict)."""


def per_game(**values: Any) -> PerGame:
    """``values`` by game, as ``PerGame`` pairs."""
    return tuple(values.items())


@dataclass(frozen=True, slots=True)
class ReviewParams:
    """Every number the review judges with (see the module docstring)."""

    z: float = tuned(
        2.0, "a decision is an error only when the paired gap is more than this many of its "
             "standard errors (about 98 in 100 one-sided when the moves are equal)", None)
    units: tuple[tuple[str, float], ...] = tuned(
        per_game(gin=20.0, indian13=25.0, indian21=40.0, rummy500=60.0, rommy=45.0,
                 basic=15.0),
        "points a hand of each game is typically worth between two good players (the mean "
        "absolute result of self-play at the review level, rounded; docs/REVIEW.md): the "
        "scale of every threshold", None)
    match_unit: float = tuned(
        0.2, "the same scale in chance to win a gin match (a decision ranked by the match "
             "score)", None)
    inaccuracy: float = tuned(0.05, "units lost that make an inaccuracy", "review-units.md")
    mistake: float = tuned(0.12, "units lost that make a mistake", "review-units.md")
    blunder: float = tuned(0.25, "units lost that make a blunder", "review-units.md")
    accuracy_scale: float = tuned(
        0.15, "units lost at which a decision's accuracy is 100/e (37): a mistake scores "
              "about 45, an inaccuracy about 72", None)
    levels: tuple[tuple[str, Level], ...] = tuned(
        per_game(gin=Level(REVIEW_LEVEL, worlds=32, shortlist=4, judged=16),
                 indian13=Level(REVIEW_LEVEL, worlds=24), indian21=Level(REVIEW_LEVEL, worlds=24),
                 rummy500=Level(REVIEW_LEVEL, playouts=64), rommy=Level(REVIEW_LEVEL, playouts=64),
                 basic=Level(REVIEW_LEVEL, playouts=64)),
        "how hard the advisor looks at each decision of a review (the level ``review``, its "
        "default): between the advisor's novice and standard, the most that reviews a hand "
        "within the speed targets (a gin hand 1 s, an Indian deal at two players 3 s, one "
        "core, p99; docs/REVIEW.md)", None)
    advisor: tuple[tuple[str, Any], ...] = tuned(
        per_game(gin=replace(GIN_PARAMS, unsearched_deals=16, oversample=1),
                 indian13=INDIAN_PARAMS, indian21=INDIAN_PARAMS, **PARAMS_BY_GAME),
        "the advisor's parameters for a review: its own, but gin values the moves its "
        "judgement chooses (the draws, the first upcard) on 16 deals instead of 4, so a "
        "draw's gap is paired over enough deals to tell (a discard the search's shortlist "
        "left out keeps the advisor's 4: its figures give no loss, the played move is "
        "always searched, and 16 cost a fifth of a review), and keeps one raw deal per "
        "world (importance resampling from as many deals as worlds: half the dealing, for "
        "the speed target)", "review-unlisted-deals.md")
    checks: tuple[tuple[str, int], ...] = tuned(
        per_game(gin=0, indian13=0, indian21=0, rummy500=32, rommy=32, basic=32),
        "fresh deals on which a decision's played move and the search's best are both played "
        "again, when they differ, for the loss (0: the search's own gap, which leans its way: "
        "its best is the move its deals favoured most, and a move it dropped was dropped on "
        "the deals worst for it)", "review-checked-losses.md")
    agreement_floor: float = tuned(
        0.05, "units the runner-up move must be behind the best (beyond the noise too) for a "
              "decision to count in engine agreement", None)

    def unit(self, game: str) -> float:
        """The points of ``game``'s unit."""
        return float(dict(self.units)[game])

    def level(self, game: str, name: str | None = None) -> Level:
        """The advisor's level a review of ``game`` looks with: ``name`` one
        of the advisor's levels, or ``review`` (None: ``review``)."""
        if name is None or name == REVIEW_LEVEL:
            found: Level = dict(self.levels)[game]
            return found
        return GAMES[game].levels[name]

    def check_deals(self, game: str) -> int:
        """The deals of a decision's check in ``game`` (``checks``; 0: none)."""
        return int(dict(self.checks)[game])

    def advisor_params(self, game: str) -> object:
        """The advisor's parameters for reviewing ``game``."""
        return dict(self.advisor)[game]

    def scale(self, game: str, units: Units) -> float:
        """One unit of ``game`` in ``units``."""
        return self.match_unit if units == "match" else self.unit(game)

    def threshold(self, game: str, units: Units, label: str) -> float:
        """The loss (in ``units``) from which a decision is ``label``."""
        share = {"inaccuracy": self.inaccuracy, "mistake": self.mistake,
                 "blunder": self.blunder}[label]
        return round(share * self.scale(game, units), 6)


REVIEW_PARAMS = ReviewParams()
"""The parameters ``review`` judges with."""

__all__ = ["ERRORS", "LABELS", "REVIEW_LEVEL", "REVIEW_PARAMS", "ReviewParams", "Units"]
