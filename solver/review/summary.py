"""Per-player summaries across many reviewed games, keyed by the players' ids.

A review's answer (``Review.to_dict()``) gives, per player, the sums its
figures are made of (``Totals``); ``Summaries.add`` adds one answer's sums
to each player's, by its id, so a studio reviewing millions of games (``
rummy-solver bulk --op review_game --summary FILE``) gets each player's
points lost per decision, accuracy, rating, losses by phase, engine
agreement and luck over all of them.  Adding in input order gives the same
summary whichever runner answered the lines (the solver pool or Ray).

The figures in points (points lost, luck, result) are each game's own
points: over several games they add unlike units (a gin point is not a
Rummy 500 point), so each player's ``by_game`` holds the same figures game
by game; the rating and the accuracy are in units of each game and pool
across games as they are.  A game counts once in an id's ``games`` however
many seats the id held (a self-play record); each seat's hands and
decisions count.

>>> summaries = Summaries()
>>> totals = Totals(hands=1, decisions=4, points_lost=2.0, units_lost=0.1, accuracy=380.0)
>>> summaries.add({"game": "gin", "players": [{"player": "ann", **totals.to_dict()}]})
True
>>> summary = summaries.to_dict()["players"]["ann"]
>>> summary["games"], summary["points_lost_per_decision"], summary["accuracy"]
({'gin': 1}, 0.5, 95.0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from solver.review.review import Totals


class Summaries:
    """Each player's totals over the reviews added (see the module docstring)."""

    def __init__(self) -> None:
        self.totals: dict[str, Totals] = {}
        self.games: dict[str, Counter[str]] = {}
        self.by_game: dict[str, dict[str, Totals]] = {}
        self.reviews = 0
        self.incomplete = 0

    def add(self, answer: Mapping[str, Any]) -> bool:
        """Add a review's answer (``Review.to_dict()``); False (nothing added)
        for an answer that is not a review."""
        players = answer.get("players")
        if not isinstance(players, list) or not all(
                isinstance(p, Mapping) and "sums" in p for p in players):
            return False
        self.reviews += 1
        self.incomplete += answer.get("complete") is False
        game = str(answer.get("game"))
        for player in players:
            name = str(player["player"])
            sums = Totals.from_dict(player)
            self.totals.setdefault(name, Totals()).add(sums)
            self.by_game.setdefault(name, {}).setdefault(game, Totals()).add(sums)
        for name in {str(player["player"]) for player in players}:  # a game once per id,
            self.games.setdefault(name, Counter())[game] += 1  # however many seats it held
        return True

    def to_dict(self) -> dict[str, Any]:
        """Wire form: per player (sorted by id) its games by kind, its figures
        over all of them, and the same figures game by game (``by_game``)."""
        return {"reviews": self.reviews, "incomplete": self.incomplete,
                "players": {name: {"games": dict(sorted(self.games[name].items())),
                                   **self.totals[name].to_dict(),
                                   "by_game": {game: totals.to_dict() for game, totals
                                               in sorted(self.by_game[name].items())}}
                            for name in sorted(self.totals)}}


__all__ = ["Summaries"]
