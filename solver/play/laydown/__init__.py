"""The advisor of the lay-down games: ``rummy500`` (2 to 4 players with one
deck and two jokers, 5 to 8 with two), ``rommy`` (2 to 6; one deck and two
jokers), ``basic`` (2 to 6, 52 cards).

* ``variant`` -- what differs between the three games (and a house's knobs);
* ``state`` -- the public state of a round, checked and replayed;
* ``fast`` -- a fast player: the model of everyone in the playouts;
* ``params`` -- the tuned numbers;
* ``advisor`` -- every legal move valued by playing the round out over dealt worlds;
* ``game`` -- the game model the registry (``solver.play.model``) holds.
"""

from __future__ import annotations

from solver.play.laydown.advisor import LEVELS_BY_GAME
from solver.play.laydown.params import BASIC_PARAMS, LAY_DOWN_PARAMS, PARAMS_BY_GAME, LayDownParams
from solver.play.laydown.variant import VARIANTS

__all__ = ["BASIC_PARAMS", "LAY_DOWN_PARAMS", "LEVELS_BY_GAME", "PARAMS_BY_GAME", "VARIANTS",
           "LayDownParams"]
