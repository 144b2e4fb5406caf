"""What a careless or hostile client sends the review: records that are
legal but odd, and the review's answer to each (never a move the player
did not make, never an error but the documented ones)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from solver.cards import card_name
from solver.deadline import Deadline
from solver.errors import InvalidOptionError, SolverInputError
from solver.play.events import MAX_EVENTS
from solver.play.replay import EVENTS_PER_CHECK
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


def _throwing_back(events: int) -> dict[str, Any]:
    """A basic-rummy record of ``events`` events in which each player throws
    back the card it drew, the pile turned over whenever the stock is empty:
    legal, and as long as a record may be."""
    deck = [card_name(card) for card in range(52)]
    upcard, stock = deck[20], deck[21:]
    pile, left, seat = [upcard], list(stock), 0
    steps: list[dict[str, Any]] = []
    while len(steps) < events:
        if not left:  # the pile turned over, unshuffled: its bottom card comes first
            left, pile = pile, []
        drawn = left.pop(0)
        steps += [{"player": seat, "action": "draw_stock", "drawn": drawn},
                  {"player": seat, "action": "discard", "card": drawn}]
        pile.append(drawn)
        seat = 1 - seat
    return {"game": "basic", "players": ["ann", "bob"], "dealer": 1,
            "deal": {"hands": [deck[:10], deck[10:20]], "upcard": upcard, "stock": stock},
            "events": steps}


def test_a_record_the_deadline_passes_while_walking_is_time_limit_too_small() -> None:
    """The walk of a record and the advisor's replay of it look at the
    deadline: 1,500 events took 60 ms to walk whatever the limit, and over
    HTTP a 1 ms limit got a 503 90 ms late.  A deadline spent before the
    record is checked leaves nothing to answer: 422 ``time_limit_too_small``
    on ``time_limit_ms``.  A short record is walked whatever the deadline,
    and reviewed in part."""
    record = _throwing_back(MAX_EVENTS)
    spent = Deadline(time.monotonic() - 1)
    with pytest.raises(InvalidOptionError) as caught:
        review(record, deadline=spent)
    assert caught.value.code == "time_limit_too_small"
    assert tuple(caught.value.loc) == ("time_limit_ms",)
    assert not walk(read_record(record)).over  # legal: only the time ran out
    short = review(_throwing_back(EVENTS_PER_CHECK - 2), deadline=spent)
    assert not short.complete and short.decisions == ()


def test_a_record_the_deadline_passes_while_reading_is_time_limit_too_small() -> None:
    """Reading the record's events looks at the deadline as the walk does: a
    record of 1,500 events of five 21-card melds (under the 1 MB body limit)
    took 100 ms to read before the walk first looked, so over HTTP a 1 ms
    limit got a 503, the solver late.  Here the last event holds a card no
    deck has: read whole, that is the answer; with the deadline spent, the
    reading stops at once."""
    meld = [card_name(card) for card in range(21)]
    record = _throwing_back(2)
    record["events"] = [{"player": 0, "action": "meld", "melds": [meld] * 5}
                        for _ in range(MAX_EVENTS)]
    record["events"][-1] = {"player": 0, "action": "meld", "melds": [[*meld[:20], "ZZ"]]}
    with pytest.raises(SolverInputError) as bad:
        review(record, time_limit_ms=60_000)
    assert bad.value.code == "invalid_card" and bad.value.loc[:2] == ("events", MAX_EVENTS - 1)
    started = time.monotonic()
    with pytest.raises(InvalidOptionError) as caught:
        review(record, deadline=Deadline(time.monotonic() - 1))
    assert (caught.value.code, tuple(caught.value.loc)) == ("time_limit_too_small",
                                                            ("time_limit_ms",))
    assert time.monotonic() - started < 0.05
