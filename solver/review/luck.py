"""The luck of a reviewed player's cards, against what such cards are worth on average.

GNU Backgammon measures the luck of a roll as the position's value after it
less the mean over every roll, both from one evaluator.  A review cannot
value every card a player might have drawn, so it measures each stock draw
as the best value at the player's next decision less the draw's value
before the card was seen (the advisor's figures), and the deal as the
player's value at its first decision.  Those differences are not 0 on
average: the search after a draw picks the best of several noisy estimates
and plays better than the playouts that valued the draw (in gin about 6
points a draw), and the first decision's value depends on whether the
player plays first or later.  So each is measured against a **baseline**:
its mean over self-play at the same game, player count and review level
(``python -m benchmarks.review_baselines``, the means written to
``luck_baselines.json`` beside this module with how they were measured):

* the deal's luck is the first decision's value less the baseline of the
  seat's position (0: the player to play first): the position's mean
  result, plus its mean hope when the value is an estimate (where the
  baseline measured it apart: ``LuckBaseline.expected_deal``), else the
  position's mean first value;
* each stock draw's luck is its difference less the baseline per draw;
* a hand's split (result = edge + net skill + net luck + rest) sets the
  position's edge apart: the mean result of the seat's position, measured
  by the same self-play.

Over many hands a player's luck then averages 0, whoever it plays and from
whichever seat.  Where no baseline was measured (house rules, Oklahoma
gin, a player count or level not in the file) the figures are against 0,
as the review's answer says (``luck_baseline`` null): compare players
there by their net luck.

>>> found = baseline_for("gin", "review", 2, None, False)
>>> found is not None and len(found.deal) == 2
True
>>> baseline_for("gin", "review", 2, {"knock_limit": 5}, False) is None
True
>>> position_of(seat=0, dealer=0, seats=2), position_of(seat=1, dealer=0, seats=2)
(1, 0)
>>> LuckBaseline(deal=(3.0, 1.0, 0.0), per_draw=0.5, result=(2.0, 0.0, -2.0)).edge(0)
2.0
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

BASELINES_FILE = "luck_baselines.json"
"""The baselines' file, beside this module."""


@dataclass(frozen=True, slots=True)
class LuckBaseline:
    """What a deal and a stock draw are worth on average for one game,
    player count and review level (see the module docstring)."""

    deal: tuple[float, ...]
    """The mean value of a player's first decision by position (0: plays first)."""
    per_draw: float
    """The mean of a stock draw's difference (next decision's best value less
    the draw's value)."""
    result: tuple[float, ...]
    """The mean result by position: the edge of playing first or later."""
    hope: tuple[float, ...] | None = None
    """By position, how far an estimated first value is above the result
    of the hand it began, on average (None: not measured; see
    ``expected_deal``)."""

    def expected_deal(self, position: int, exact: bool) -> float:
        """What the first decision's value of ``position`` is measured
        against: the mean result of the position, plus ``hope`` when the
        value is an estimate; without ``hope``, the mean first value.

        An estimated first value is hopeful (the best of several noisy
        estimates), an exact one (an Indian drop's cost) is not: against
        one mean of both, every exact value read as bad luck and every
        estimate as good luck, though they balanced over many hands.

        >>> LuckBaseline((12.0, 4.0), 0.0, (1.0, -1.0), hope=(13.0, 5.0)).expected_deal(0, True)
        1.0
        >>> LuckBaseline((12.0, 4.0), 0.0, (1.0, -1.0), hope=(13.0, 5.0)).expected_deal(0, False)
        14.0
        >>> LuckBaseline((12.0, 4.0), 0.0, (1.0, -1.0)).expected_deal(0, True)
        12.0
        """
        if self.hope is None:
            return self.deal[position]
        return self.result[position] + (0.0 if exact else self.hope[position])

    def edge(self, position: int) -> float:
        """What ``position`` is worth: its mean result (the positions' means
        sum to 0, as each hand's results do; the position's mean less the
        others' would count it again as the others' loss)."""
        return self.result[position]

    def to_dict(self) -> dict[str, Any]:
        """Wire form."""
        out: dict[str, Any] = {"deal": [round(v, 3) for v in self.deal],
                               "per_draw": round(self.per_draw, 3),
                               "result": [round(v, 3) for v in self.result]}
        if self.hope is not None:
            out["hope"] = [round(v, 3) for v in self.hope]
        return out


def position_of(*, seat: int, dealer: int, seats: int) -> int:
    """The seat's place in the order of play: 0 for the player left of the
    dealer, who plays first."""
    return (seat - dealer - 1) % seats


@functools.cache
def _table() -> dict[str, Any]:
    text = resources.files("solver.review").joinpath(BASELINES_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)["baselines"]
    return data


def baseline_for(game: str, level: str, seats: int, rules: Mapping[str, Any] | None,
                 oklahoma: bool) -> LuckBaseline | None:
    """The baseline a review of ``game`` at ``level`` between ``seats``
    players measures luck against; None where none was measured: house
    ``rules`` (any knob given), Oklahoma gin, or a player count or level the
    file has not."""
    if rules or oklahoma:
        return None
    entry = _table().get(game, {}).get(level, {}).get(str(seats))
    if entry is None:
        return None
    hope = entry.get("hope")
    return LuckBaseline(tuple(float(v) for v in entry["deal"]), float(entry["per_draw"]),
                        tuple(float(v) for v in entry["result"]),
                        None if hope is None else tuple(float(v) for v in hope))


def baselines() -> dict[str, Any]:
    """Every baseline with how it was measured (the file's ``baselines``)."""
    copied: dict[str, Any] = json.loads(json.dumps(_table()))  # the cached table stays as read
    return copied


__all__ = ["BASELINES_FILE", "LuckBaseline", "baseline_for", "baselines", "position_of"]
