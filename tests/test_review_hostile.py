"""What a careless or hostile client sends the review: records that are
legal but odd, and the review's answer to each (never a move the player
did not make, never an error but the documented ones)."""

from __future__ import annotations

from solver.play.words import DISCARD, LAY_OFF, MELD
from solver.review import read_record, review
from solver.review.selfplay import at_random, follow, play
from solver.review.table import walk


def test_a_lay_down_turn_the_record_stops_inside_is_no_decision() -> None:
    # the events stop after a meld, before the turn's throw: the play is not
    # known whole, so it is not judged (it was judged as a "go out" the player
    # never made, which the advisor refused as illegal)
    record = play("rummy500", [follow, at_random], seed=1, level="novice")
    steps = record.to_dict()["events"]
    cut = next(k for k, step in enumerate(steps) if step["action"] in (MELD, LAY_OFF)
               and steps[k + 1]["action"] == DISCARD)
    whole = walk(record).decisions
    stopped = read_record({**record.to_dict(), "events": steps[:cut + 1]})
    walked = walk(stopped)
    assert not walked.over and walked.ending == "unfinished"
    assert walked.decisions == tuple(d for d in whole if d.last < cut)
    seat = steps[cut]["player"]
    answer = review(stopped, seats=[seat], level="novice", time_limit_ms=60_000)
    assert answer.complete and answer.decisions
    assert all(j.why_not is None and j.decision.last < cut for j in answer.decisions)
