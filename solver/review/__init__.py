"""Game review: recorded games, every decision judged against the advisor's best.

* ``solver.review.record`` -- ``Record``: a recorded game (the deal, every
  action in the project's event words, the cards drawn, who sat where) and
  its wire form;
* ``solver.review.table`` -- ``read_record``: a record read and checked like a
  state; ``walk``: a record followed with every card face up (each seat's
  hand, its decisions, how the hand ended and its points);
* ``solver.review.review`` -- ``review``: each decision of each player
  valued by the advisor, the move played against the best (the paired
  loss, a label and how sure it is), per player its accuracy, rating,
  losses by phase, worst decisions, engine agreement and luck;
* ``solver.review.params`` -- ``ReviewParams``: the thresholds and the
  review's level of each game, as data;
* ``solver.review.openspiel`` -- OpenSpiel ``gin_rummy`` action histories as
  records, and back;
* ``solver.review.selfplay`` -- games played by the advisor's moves, recorded
  (for tests and speed figures).

docs/REVIEW.md defines the figures and says why each threshold is what it is.
"""

from solver.review.openspiel import from_openspiel, to_openspiel
from solver.review.params import REVIEW_PARAMS, ReviewParams
from solver.review.record import Record
from solver.review.review import Review, Totals, review, review_game, review_openspiel
from solver.review.table import check_record, read_record

__all__ = ["REVIEW_PARAMS", "Record", "Review", "ReviewParams", "Totals", "check_record",
           "from_openspiel", "read_record", "review", "review_game", "review_openspiel",
           "to_openspiel"]
