"""api.pool.fair_queue, api.pool.service_times, api.server.access_log and api.server.keepalive: the
pure parts of the serving path (the pool itself is tests/test_pool.py)."""

from __future__ import annotations

import logging

import pytest

from api.pool.fair_queue import FairQueue
from api.pool.service_times import ServiceTimes, kind_of
from api.server.access_log import SUMMARY_S, AccessLog
from api.server.keepalive import ConnectionAges
from api.shared.operations import OPERATIONS
from api.shared.settings import Settings


def test_the_client_running_fewest_goes_next() -> None:
    queue = FairQueue[str](reserve=0)
    for job in ("a1", "a2", "a3"):
        queue.push("a", job)
    queue.push("b", "b1")
    queue.push("c", "c1")
    order = [queue.pop(free=3) for _ in range(3)]
    assert order == ["a1", "b1", "c1"]  # a runs one: b and c go before a's second
    queue.finished("a")
    assert queue.pop(free=1) == "a2" and len(queue) == 1


def test_the_last_free_solver_is_kept_for_a_client_running_nothing() -> None:
    queue = FairQueue[str](reserve=1)
    queue.push("stream", "line1")
    queue.push("stream", "line2")
    assert queue.pop(free=2) == "line1"
    assert queue.pop(free=1) is None  # the stream runs one already
    queue.push("newcomer", "solve")
    assert queue.pop(free=1) == "solve"


def test_work_ahead_counts_only_who_goes_first() -> None:
    queue = FairQueue[str](reserve=0)
    queue.push("stream", "line", work=2.0)
    queue.started("stream")
    queue.push("crowd", "heavy", work=1.0)
    assert queue.work_ahead("light") == pytest.approx(1.0)  # not the stream's line
    assert queue.work_ahead("stream") == pytest.approx(3.0)
    assert queue.remove("heavy") and not queue.remove("heavy")
    assert queue.work_ahead("light") == 0.0 and len(queue) == 1
    assert queue.clear() == ["line"] and len(queue) == 0


def test_service_times_are_learnt_per_kind() -> None:
    times = ServiceTimes()
    gin = kind_of("solve_hand", {"variant": "gin", "hand": ["AS"] * 10})
    heavy = kind_of("solve_hand", {"variant": "gin", "hand": ["AS"] * 30})
    assert gin != heavy and kind_of("solve_hand", {"variant": "gin", "hand": "AS 2S"}) != gin
    assert times.estimate(gin, 1.0) == 1.0  # never seen: its whole limit
    times.observe(gin, 1.0, 0.002)
    assert times.estimate(gin, 1.0) == pytest.approx(0.002)
    assert times.estimate(heavy, 1.0) == 1.0
    assert gin == "solve_hand:gin:8"  # a solve's kind is what it always was


def test_advice_is_timed_per_game() -> None:
    """``/v1/advise`` names its game in ``game``, not ``variant``: advice on a
    basic deal and on a six-player Rummy 500 deal are kinds of their own."""
    settings = Settings()
    hand = "AH 2H 3H 9S 9D KC 5C"
    kinds = {}
    for game in ("rummy500", "rommy", "basic"):
        call = OPERATIONS["advise"].parse({"game": game, "hand": hand, "upcard": "8C", "players": 6,
                                           "me": 1, "dealer": 0}, settings)
        kinds[game] = kind_of(call.op, call.args)
    assert len(set(kinds.values())) == 3, kinds
    times = ServiceTimes()
    times.observe(kinds["basic"], 1.0, 0.01)
    assert times.estimate(kinds["rummy500"], 1.0) == 1.0  # not the basic deal's time


def test_advice_is_timed_per_level_and_table() -> None:
    """Novice advice on a hand takes milliseconds, expert advice on it a second;
    Rummy 500 at eight players is not Rummy 500 at three."""
    settings = Settings()
    body = {"game": "rummy500", "hand": "AH 2H 3H 9S 9D KC 5C", "upcard": "8C", "me": 1,
            "dealer": 0}
    kinds = {(level, players): kind_of("advise", OPERATIONS["advise"].parse(
                 {**body, "level": level, "players": players}, settings).args)
             for level in ("novice", "expert") for players in (3, 8)}
    assert len(set(kinds.values())) == 4, kinds


def test_service_times_are_learnt_per_time_limit() -> None:
    """Expert advice with a 5 s budget is not judged by the same advice with a
    1 s one (a crowd with a 1 s budget taught the pool 1 s; the next crowd at
    5 s was admitted by it and refused only at its deadline)."""
    times = ServiceTimes()
    advice = "advise:gin:8"
    for _ in range(5):
        times.observe(advice, 1.0, 0.97)  # each ran to its 1 s deadline
    assert times.estimate(advice, 1.0) == pytest.approx(0.97)
    assert times.estimate(advice, 5.0) == 5.0  # never seen at 5 s: its whole limit
    times.observe(advice, 5.0, 1.6)  # finished long before its deadline: its time
    assert times.estimate(advice, 5.0) == pytest.approx(1.6)


def test_a_job_cut_short_by_its_deadline_counts_as_using_its_limit() -> None:
    """A job that started with 0.5 s of its 5 s left and ran all of it would
    have run on: it is not evidence that such jobs are quick."""
    times = ServiceTimes()
    times.observe("solve_hand:gin:28", 5.0, 0.48, available_s=0.5)
    assert times.estimate("solve_hand:gin:28", 5.0) == pytest.approx(4.8)
    times.observe("solve_hand:indian13:12", 5.0, 0.004, available_s=0.5)  # done early: its time
    assert times.estimate("solve_hand:indian13:12", 5.0) == pytest.approx(0.004)


def test_the_waiting_jobs_are_ordered_as_they_will_start() -> None:
    """Clients take turns: the stream's second line waits behind everyone's first."""
    queue = FairQueue[str](reserve=1)
    queue.push("stream", "line1")
    queue.push("stream", "line2")
    queue.push("stream", "line3")
    queue.started("stream")
    queue.push("a", "a1")
    queue.push("b", "b1")
    queue.push("a", "a2")
    assert [job for _, job in queue.ordered()] == ["a1", "b1", "line1", "a2", "line2", "line3"]
    assert [client for client, _ in queue.ordered()][:2] == ["a", "b"]


def test_a_full_queue_gives_the_last_to_start_place_to_a_job_that_goes_before_it() -> None:
    """A full queue refuses what would start last: a client running and
    waiting fewer takes the place of the newest job of the client with most."""
    queue = FairQueue[str](reserve=1)
    for job in ("flood1", "flood2", "flood3"):
        queue.push("flood", job)
    queue.started("flood")
    assert queue.displaced("newcomer") == "flood3"
    assert queue.displaced("flood") is None  # it would start after every one of its own
    queue.push("other", "other1")
    queue.started("other")
    queue.started("other")
    queue.started("other")
    assert queue.displaced("other") is None  # level 4 of 4: the waiting job keeps its place
    # both lines end at level 3: the one ordered() starts last goes
    assert queue.displaced("newcomer") == [job for _, job in queue.ordered()][-1] == "flood3"


def test_the_access_log_is_bounded_and_summed_up(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, "api.access")
    log = AccessLog(per_s=10)
    for i in range(1000):  # 1,000 requests in one second
        log.write(i / 1000, "POST", "/v1/solve", "/v1/solve", 200, {"ms": 1.0})
    log.write(SUMMARY_S + 1, "POST", "/v1/solve", "/v1/solve", 200, {"ms": 1.0})
    lines = [record for record in caplog.records if record.name == "api.access"]
    assert len(lines) < 40
    summary = [record for record in lines if "summary" in record.getMessage()]
    assert summary and summary[-1].skipped[0]["requests"] > 900  # type: ignore[attr-defined]
    assert AccessLog(per_s=0).admit(0.0)


def test_old_connections_are_closed_once() -> None:
    ages = ConnectionAges(max_s=5)
    assert not ages.expired(("h", 1), 0.0)
    assert not ages.expired(("h", 2), 4.0)
    assert ages.expired(("h", 1), 5.0)
    assert not ages.expired(("h", 1), 5.1)  # a new connection on the same port starts again
    assert not ConnectionAges(max_s=0).expired(("h", 1), 100.0)


def test_connections_opened_together_do_not_reconnect_together() -> None:
    """A client's 32 connections opened in one instant: each closes once, no
    later than ``max_s`` and no sooner than half of it, at most a few in any
    tenth of the spread (no reconnect storm)."""
    ages = ConnectionAges(max_s=5)
    pool = [("h", port) for port in range(32)]
    closed: dict[tuple[str, int], float] = {}
    for step in range(0, 5001):  # every connection answers every millisecond
        now = step / 1000
        for connection in pool:
            if connection not in closed and ages.expired(connection, now):
                closed[connection] = now
    assert len(closed) == len(pool)
    assert min(closed.values()) >= 2.5 and max(closed.values()) <= 5.0
    per_tenth = [0] * 10
    for t in closed.values():
        per_tenth[min(int((t - 2.5) / 0.25), 9)] += 1
    assert max(per_tenth) <= 5, per_tenth
