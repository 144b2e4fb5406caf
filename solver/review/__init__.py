"""Game review: recorded games, every decision judged against the advisor's best.

* ``solver.review.record`` -- ``Record``: a recorded game (the deal, every
  action in the project's event words, the cards drawn, who sat where),
  read from its wire form and checked like a state;
* ``solver.review.table`` -- ``walk``: a record followed with every card face
  up (each seat's hand, its decisions, how the hand ended and its points);
* ``solver.review.openspiel`` -- OpenSpiel ``gin_rummy`` action histories as
  records, and back.
"""

from solver.review.openspiel import from_openspiel, to_openspiel
from solver.review.record import Record

__all__ = ["Record", "from_openspiel", "to_openspiel"]
