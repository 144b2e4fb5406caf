"""api.pool.solver_pool: solver processes that can be cut short, and admission control.

Runs real solver processes (forkserver) with the small job runner in
``tests/pool_jobs.py``: a crashed or overrunning process is replaced and its
request answered 503; a client that goes away cancels its job; a full queue,
or a wait past the deadline, is refused at once; processes are recycled.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from api.pool.solver_pool import (
    BACKSTOP_S,
    LATE_S,
    PROMISE_S,
    SOLVER_NICENESS,
    Outcome,
    Overloaded,
    SolverPool,
)
from api.shared.settings import Settings

RUNNER = "tests.pool_jobs:run"


async def _never() -> None:
    await asyncio.Event().wait()


def _after(seconds: float) -> Callable[[], Awaitable[None]]:
    async def gone() -> None:
        await asyncio.sleep(seconds)
    return gone


async def _submit(pool: SolverPool, op: str, payload: dict[str, Any], limit_s: float,
                  disconnected: Callable[[], Awaitable[None]] = _never) -> Outcome:
    return await pool.submit(op, payload, time.monotonic() + limit_s, limit_s * 1000,
                             disconnected, "req-1")


def run(settings: Settings, scenario: Callable[[SolverPool], Awaitable[Any]],
        **options: Any) -> Any:
    async def main() -> Any:
        pool = SolverPool(settings, RUNNER, **options)
        await pool.start()
        try:
            return await scenario(pool)
        finally:
            await pool.stop()

    return asyncio.run(main())


def body(outcome: Outcome) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(outcome.body)
    return data


@pytest.mark.parametrize("processes", [0, 1])
def test_jobs_are_answered_with_their_request_id(processes: int) -> None:
    async def scenario(pool: SolverPool) -> None:
        outcome = await _submit(pool, "echo", {"x": 1}, 5)
        assert outcome.status == 200
        assert body(outcome)["payload"] == {"x": 1} and body(outcome)["request_id"] == "req-1"

    run(Settings(processes=processes), scenario)


def test_a_crashed_process_is_replaced() -> None:
    async def scenario(pool: SolverPool) -> None:
        first = body(await _submit(pool, "pid", {}, 5))["pid"]
        crashed = await _submit(pool, "crash", {}, 5)
        assert crashed.status == 503 and crashed.log["retry_after"] >= 1
        after = await _submit(pool, "pid", {}, 10)
        assert after.status == 200 and body(after)["pid"] != first

    run(Settings(processes=1), scenario)


def test_a_process_overrunning_its_deadline_is_killed_and_replaced() -> None:
    async def scenario(pool: SolverPool) -> None:
        first = body(await _submit(pool, "pid", {}, 5))["pid"]
        started = time.monotonic()
        outcome = await _submit(pool, "sleep", {"s": 5}, 0.2)
        took = time.monotonic() - started
        assert outcome.status == 503
        assert 0.2 <= took < 0.2 + PROMISE_S + 0.1, took  # answered before the kill
        after = await _submit(pool, "pid", {}, 10)
        assert after.status == 200 and body(after)["pid"] != first

    run(Settings(processes=1), scenario)


def test_a_late_job_is_answered_at_once_and_its_process_kept_if_it_finishes() -> None:
    async def scenario(pool: SolverPool) -> None:
        first = body(await _submit(pool, "pid", {}, 5))["pid"]
        late_by = (LATE_S + BACKSTOP_S) / 2  # past the answer, short of the kill
        outcome = await _submit(pool, "sleep", {"s": 0.2 + late_by}, 0.2)
        assert outcome.status == 503
        # its message says what to do, as its Retry-After does
        assert body(outcome)["detail"][0]["type"] == "unavailable"
        assert body(outcome)["detail"][0]["msg"].endswith(
            f"; retry in {outcome.log['retry_after']} s")
        after = await _submit(pool, "pid", {}, 10)
        assert after.status == 200 and body(after)["pid"] == first

    run(Settings(processes=1), scenario)


def test_an_answer_a_little_past_the_deadline_is_sent_not_replaced_by_a_503() -> None:
    """The promise is the deadline + 100 ms: an answer 52 ms late is sent as it is."""
    async def scenario(pool: SolverPool) -> None:
        await _submit(pool, "echo", {}, 5)
        started = time.monotonic()
        outcome = await _submit(pool, "sleep", {"s": 0.252}, 0.2)
        took = time.monotonic() - started
        assert outcome.status == 200, outcome.body
        assert 0.252 <= took < 0.2 + PROMISE_S, took

    run(Settings(processes=1), scenario)


def test_a_job_whose_deadline_passed_before_it_reached_the_pool_gets_its_answer() -> None:
    """A request whose limit its own body's reading spent (a 1 MB history
    under ``time_limit_ms: 1``) starts at once, past its deadline: its
    solver process sees the spent deadline and answers as soon as it has
    read the body (the library's 422 ``time_limit_too_small``, or its best
    so far), and that answer is sent.  Counted from the deadline, the late
    timer had gone off before the process could answer: a 503 "the solver
    overran" for a solver that was never slow."""
    async def scenario(pool: SolverPool) -> None:
        await _submit(pool, "echo", {}, 5)
        for _ in range(3):
            started = time.monotonic()
            outcome = await _submit(pool, "spin", {"s": 5}, -0.25)
            assert outcome.status == 200, outcome.body
            assert body(outcome)["stopped"] == "deadline"
            assert time.monotonic() - started < 0.1  # the spin stops at once

    run(Settings(processes=1), scenario)


def test_a_job_whose_deadline_passed_before_it_reached_the_pool_waits_briefly_for_a_solver(
        ) -> None:
    """Such a request (see above) finding its solver busy for a moment (a job
    ending, a garbage collection) waits for it, up to ``SPENT_READ_S``, and
    gets the library's answer; refused at once, it had a 503 that the same
    body would get again.  A solver busy for longer still refuses it at once."""
    async def scenario(pool: SolverPool) -> None:
        pool.times.observe("sleep", 5.0, 0.1)
        pool.times.observe("sleep", 5.0, 0.1)
        short = asyncio.ensure_future(pool.submit("sleep", {"s": 0.1}, time.monotonic() + 5,
                                                  5000, _never, "short", client="a"))
        await asyncio.sleep(0.02)
        spent = await pool.submit("spin", {"s": 5}, time.monotonic() - 0.25, 1, _never,
                                  "spent", client="b")
        assert spent.status == 200, spent.body
        assert body(spent)["stopped"] == "deadline"
        assert (await short).status == 200
        # A solver busy for a second refuses it at once.
        await refused_beside(pool, 1.0, 2.0, past_s=0.25)
        # Just past its deadline (a 1 ms limit), the promise of the deadline +
        # 100 ms still ahead: a busy solver refuses it at once, as before.
        await refused_beside(pool, 0.1, 0.1, past_s=0.002)

    async def refused_beside(pool: SolverPool, busy_s: float, expected_s: float,
                             past_s: float) -> None:
        """A job arriving ``past_s`` after its deadline while another client's
        job, expected to take ``expected_s``, holds the one solver: refused at once."""
        for _ in range(20):
            pool.times.observe("sleep", 5.0, expected_s)
        busy = asyncio.ensure_future(pool.submit("sleep", {"s": busy_s}, time.monotonic() + 5,
                                                 5000, _never, "busy", client="a"))
        await asyncio.sleep(0.02)
        started = time.monotonic()
        with pytest.raises(Overloaded):
            await pool.submit("spin", {"s": 5}, started - past_s, 1, _never, "late", client="b")
        assert time.monotonic() - started < 0.05
        assert (await busy).status == 200

    run(Settings(processes=1), scenario)


def test_a_cooperative_job_stops_at_its_deadline() -> None:
    async def scenario(pool: SolverPool) -> None:
        started = time.monotonic()
        outcome = await _submit(pool, "spin", {"s": 5}, 0.15)
        assert outcome.status == 200 and body(outcome)["stopped"] == "deadline"
        assert time.monotonic() - started < 0.15 + 0.05

    run(Settings(processes=1), scenario)


@pytest.mark.parametrize("processes", [0, 1])
def test_a_disconnect_cancels_the_running_job_within_100_ms(processes: int) -> None:
    async def scenario(pool: SolverPool) -> None:
        started = time.monotonic()
        outcome = await _submit(pool, "spin", {"s": 10}, 20, _after(0.1))
        assert outcome.status == 499
        assert time.monotonic() - started < 0.2
        # The slot is free again as soon as the job has stopped.
        freed = time.monotonic()
        after = await _submit(pool, "echo", {}, 5)
        assert after.status == 200 and time.monotonic() - freed < 0.15

    run(Settings(processes=processes), scenario)


def test_a_disconnect_while_queued_drops_the_job() -> None:
    async def scenario(pool: SolverPool) -> None:
        running = asyncio.ensure_future(_submit(pool, "spin", {"s": 0.4}, 5))
        await asyncio.sleep(0.05)
        # (a kind never seen is expected to use its whole limit: 5 s ahead of it)
        queued = await _submit(pool, "echo", {}, 10, _after(0.05))
        assert queued.status == 499 and pool.queue_depth == 0
        assert (await running).status == 200

    run(Settings(processes=1), scenario)


def test_a_full_queue_is_refused_at_once() -> None:
    async def scenario(pool: SolverPool) -> None:
        busy = asyncio.ensure_future(_submit(pool, "spin", {"s": 0.5}, 5))
        await asyncio.sleep(0.05)
        waiting = asyncio.ensure_future(_submit(pool, "echo", {}, 10))
        await asyncio.sleep(0.01)
        started = time.monotonic()
        with pytest.raises(Overloaded) as refused:
            await _submit(pool, "echo", {}, 10)
        assert time.monotonic() - started < 0.01
        assert refused.value.retry_after_s >= 1 and "waiting" in refused.value.reason
        assert (await busy).status == 200 and (await waiting).status == 200

    run(Settings(processes=1, queue_size=1), scenario)


def test_a_wait_past_the_deadline_is_refused() -> None:
    async def scenario(pool: SolverPool) -> None:
        for _ in range(3):  # teach the pool that jobs take about 0.3 s
            await _submit(pool, "spin", {"s": 0.3}, 5)
        busy = asyncio.ensure_future(_submit(pool, "spin", {"s": 0.3}, 5))
        await asyncio.sleep(0.02)
        with pytest.raises(Overloaded) as refused:
            await _submit(pool, "echo", {}, 0.05)
        assert "too close to its deadline" in refused.value.reason
        # Queued by a wrong estimate: the next plan of the waiting jobs refuses it,
        # before its deadline.
        pool.expected_start_s = lambda client="-": 0.0  # type: ignore[method-assign]
        started = time.monotonic()
        late = await _submit(pool, "echo", {}, 0.15)
        assert late.status == 503 and time.monotonic() - started < 0.15
        assert body(late)["detail"][0]["type"] == "overloaded" and late.log["retry_after"] >= 1
        await busy

    run(Settings(processes=1), scenario)


def test_a_batch_job_waits_for_a_solver_and_its_limit_counts_from_its_start() -> None:
    """``batch`` (bulk's chunks): however long the wait, never refused for it;
    its time limit runs from its start, and still ends a job that ignores it."""
    async def scenario(pool: SolverPool) -> None:
        for _ in range(3):  # the pool expects a spin to take 0.3 s
            await _submit(pool, "spin", {"s": 0.3}, 5)
        busy = asyncio.ensure_future(_submit(pool, "spin", {"s": 0.3}, 5))
        await asyncio.sleep(0.02)
        started = time.monotonic()
        waited = await pool.submit("spin", {"s": 0.05}, started + 0.1, 100, _never, "req-1",
                                   batch=True)
        assert waited.status == 200 and body(waited)["stopped"] == "done"
        assert time.monotonic() - started > 0.25  # it waited for the busy job, past 0.1 s
        assert (await busy).status == 200
        busy = asyncio.ensure_future(_submit(pool, "spin", {"s": 0.3}, 5))
        await asyncio.sleep(0.02)
        started = time.monotonic()
        stuck = await pool.submit("sleep", {"s": 5}, started + 0.2, 200, _never, "req-1",
                                  batch=True)
        took = time.monotonic() - started
        assert stuck.status == 503
        assert 0.25 + 0.2 <= took < 0.3 + 0.2 + LATE_S + 0.15, took
        await busy

    run(Settings(processes=1), scenario)


@pytest.mark.parametrize("niceness", [SOLVER_NICENESS, 0])
def test_solver_processes_run_below_their_worker_by_the_pools_niceness(niceness: int) -> None:
    async def scenario(pool: SolverPool) -> int:
        pid = body(await _submit(pool, "pid", {}, 5))["pid"]
        return os.getpriority(os.PRIO_PROCESS, pid)

    own = os.getpriority(os.PRIO_PROCESS, 0)
    options = {} if niceness == SOLVER_NICENESS else {"niceness": niceness}
    assert run(Settings(processes=1), scenario, **options) == min(19, own + niceness)


def _forked_and_parent(settings: Settings) -> tuple[bool, int]:
    """Whether ``fork_processes`` forked the pool's processes, and their parent's pid."""
    pool = SolverPool(settings, RUNNER)
    forked = pool.fork_processes()

    async def main() -> int:
        await pool.start()
        try:
            parent: int = body(await _submit(pool, "pid", {}, 5))["ppid"]
            return parent
        finally:
            await pool.stop()

    return forked, asyncio.run(main())


def test_processes_are_forked_from_a_caller_without_other_threads() -> None:
    """``fork_processes``: a process started by fork is this process's child; with
    another thread running it is the forkserver's (a fork copies no other thread)."""
    if threading.active_count() == 1:
        assert _forked_and_parent(Settings(processes=2)) == (True, os.getpid())
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        forked, parent = _forked_and_parent(Settings(processes=1))
    finally:
        release.set()
        other.join()
    assert not forked and parent != os.getpid()


def test_processes_are_recycled_after_so_many_jobs() -> None:
    async def scenario(pool: SolverPool) -> list[int]:
        pids = []
        for _ in range(5):
            outcome = await _submit(pool, "pid", {}, 10)
            assert outcome.status == 200
            pids.append(body(outcome)["pid"])
        return pids

    pids = run(Settings(processes=1, recycle_tasks=2), scenario)
    assert pids[0] == pids[1] != pids[2] == pids[3] != pids[4]


def test_stop_refuses_what_waits() -> None:
    async def scenario(pool: SolverPool) -> None:
        busy = asyncio.ensure_future(_submit(pool, "spin", {"s": 0.3}, 5))
        await asyncio.sleep(0.02)
        waiting = asyncio.ensure_future(_submit(pool, "echo", {}, 10))
        await asyncio.sleep(0.02)
        await pool.stop()
        assert (await waiting).status == 503
        await busy
        with pytest.raises(Overloaded):
            await _submit(pool, "echo", {}, 5)

    run(Settings(processes=1), scenario)


def test_a_process_still_busy_when_its_client_leaves_is_kept() -> None:
    """A cancelled job whose process has not read its flag yet (here: a job
    that ignores it for 0.3 s) is not a reason to replace a healthy process."""
    async def scenario(pool: SolverPool) -> None:
        first = body(await _submit(pool, "pid", {}, 5))["pid"]
        outcome = await _submit(pool, "sleep", {"s": 0.3}, 5, _after(0.05))
        assert outcome.status == 499
        after = await _submit(pool, "pid", {}, 5)
        assert after.status == 200 and body(after)["pid"] == first

    run(Settings(processes=1), scenario)


def test_a_client_running_a_job_waits_behind_one_running_none() -> None:
    """The fair share: with every solver busy, the next free one goes to the
    client with fewer jobs running, whoever queued first."""
    async def scenario(pool: SolverPool) -> list[str]:
        order: list[str] = []

        async def job(client: str, seconds: float) -> None:
            outcome = await pool.submit("spin", {"s": seconds}, time.monotonic() + 10, 10_000,
                                        _never, client, client=client)
            assert outcome.status == 200
            order.append(client)

        pool.times.observe("spin", 10.0, 0.3)  # known work: the later jobs are queued, not refused
        stream = asyncio.ensure_future(job("stream", 0.3))
        await asyncio.sleep(0.05)
        second_line = asyncio.ensure_future(job("stream", 0.05))
        await asyncio.sleep(0.02)
        light = asyncio.ensure_future(job("light", 0.05))
        await asyncio.gather(stream, second_line, light)
        return order

    assert run(Settings(processes=1), scenario) == ["stream", "light", "stream"]


def test_a_full_queue_does_not_lock_out_a_client_running_nothing() -> None:
    """One client fills the queue (RUMMY_SOLVER_QUEUE_SIZE): another client's
    request, which goes before its newest, takes that one's place (503
    overloaded with Retry-After), instead of being refused while the flood
    is served; the flooding client's next request is the one refused."""
    async def scenario(pool: SolverPool) -> None:
        pool.times.observe("spin", 10.0, 0.3)  # known work: queued, not refused by deadline
        pool.times.observe("echo", 10.0, 0.01)

        def submit(op: str, client: str, seconds: float = 0.0) -> Awaitable[Outcome]:
            return pool.submit(op, {"s": seconds}, time.monotonic() + 10, 10_000, _never,
                               client, client=client)

        running = asyncio.ensure_future(submit("spin", "flood", 0.3))
        await asyncio.sleep(0.05)
        first = asyncio.ensure_future(submit("echo", "flood"))
        newest = asyncio.ensure_future(submit("echo", "flood"))
        await asyncio.sleep(0.01)
        assert pool.queue_depth == 2
        other = asyncio.ensure_future(submit("echo", "other"))
        await asyncio.sleep(0.01)
        assert newest.done() and pool.queue_depth == 2
        pushed = newest.result()
        assert pushed.status == 503 and body(pushed)["detail"][0]["type"] == "overloaded"
        assert "RUMMY_SOLVER_QUEUE_SIZE" in body(pushed)["detail"][0]["msg"]
        assert pushed.log["retry_after"] >= 1
        with pytest.raises(Overloaded) as refused:  # the flood would start after all of them
            await submit("echo", "flood")
        assert "RUMMY_SOLVER_QUEUE_SIZE" in refused.value.reason
        assert (await other).status == 200
        assert (await first).status == 200 and (await running).status == 200

    run(Settings(processes=1, queue_size=2), scenario)


def test_a_waiting_job_that_can_no_longer_start_in_time_is_refused_then() -> None:
    """Admitted behind a job expected to take 0.2 s, a request waits; that job
    runs on and on, and as soon as the request cannot start before its deadline
    it is refused (503 overloaded with Retry-After), not at its deadline."""
    async def scenario(pool: SolverPool) -> None:
        pool.times.observe("spin", 5.0, 0.2)
        pool.times.observe("echo", 1.5, 0.01)
        busy = asyncio.ensure_future(pool.submit("spin", {"s": 2.0}, time.monotonic() + 5, 5000,
                                                 _never, "busy", client="a"))
        await asyncio.sleep(0.05)
        started = time.monotonic()
        waiting = await pool.submit("echo", {}, started + 1.5, 1500, _never, "waiting",
                                    client="b")
        took = time.monotonic() - started
        assert waiting.status == 503 and body(waiting)["detail"][0]["type"] == "overloaded"
        assert waiting.log["retry_after"] >= 1
        assert 0.3 < took < 1.2, took  # when it became clear, well before its 1.5 s deadline
        assert (await busy).status == 200

    run(Settings(processes=1), scenario)


def test_a_client_running_a_job_is_refused_at_once_when_only_the_kept_solver_is_free() -> None:
    """The last free solver is kept for a client running nothing: a client
    running a long job that sends another cannot start it there, so it is
    refused at once instead of waiting for its deadline beside a free solver."""
    async def scenario(pool: SolverPool) -> None:
        long = asyncio.ensure_future(pool.submit("spin", {"s": 1.0}, time.monotonic() + 5, 5000,
                                                 _never, "long", client="a"))
        await asyncio.sleep(0.05)
        started = time.monotonic()
        with pytest.raises(Overloaded):
            await pool.submit("echo", {}, started + 0.5, 500, _never, "second", client="a")
        assert time.monotonic() - started < 0.05
        other = await pool.submit("echo", {}, time.monotonic() + 0.5, 500, _never, "b",
                                  client="b")
        assert other.status == 200  # the kept solver serves a client running nothing
        assert (await long).status == 200

    run(Settings(processes=2), scenario)


def test_a_client_answered_late_is_not_held_back_by_its_jobs_tail() -> None:
    """A job answered 503 past its deadline may still run a moment: its client,
    answered, sends its next request, which starts at once on the free solver
    (the fair share no longer counts the job as the client's)."""
    async def scenario(pool: SolverPool) -> None:
        # the job's tail (0.8 s past its 503) is far longer than the next
        # request's deadline (0.4 s): held back behind it, that one would be a 503
        late = await pool.submit("sleep", {"s": 1.0}, time.monotonic() + 0.2, 200, _never,
                                 "late", client="a")
        assert late.status == 503
        started = time.monotonic()
        after = await pool.submit("echo", {}, started + 0.4, 400, _never, "next", client="a")
        assert after.status == 200, after.body
        assert time.monotonic() - started < 0.4

    run(Settings(processes=2), scenario)


def test_a_solver_process_logs_at_the_level_of_its_settings() -> None:
    """The level comes from the pool's ``Settings`` (the one place settings are
    read), not from the environment: a pool given ``log_level="debug"`` logs at
    debug even where ``RUMMY_SOLVER_LOG_LEVEL`` says error.  In a fresh
    interpreter, so that the forkserver its processes come from starts with
    that variable set."""
    script = textwrap.dedent(f"""
        import asyncio, time
        from api.pool.solver_pool import SolverPool
        from api.shared.settings import Settings

        async def main() -> None:
            pool = SolverPool(Settings(processes=1, log_level="debug"), {RUNNER!r})
            await pool.start()
            try:
                outcome = await pool.submit("log_level", {{}}, time.monotonic() + 30, 30_000,
                                            asyncio.Event().wait)
                print(outcome.body.decode())
            finally:
                await pool.stop()

        asyncio.run(main())
    """)
    printed = _in_a_fresh_interpreter(script, RUMMY_SOLVER_LOG_LEVEL="error")
    assert json.loads(printed.splitlines()[-1]) == {"level": "DEBUG"}


def _in_a_fresh_interpreter(script: str, **environment: str) -> str:
    """What ``script`` prints, run by a new Python from the project's root with
    ``environment`` added (a forkserver starts there with its own preload)."""
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, **environment,
           "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_solver_processes_forked_warm_with_their_settings_skip_their_warm_up() -> None:
    """A forkserver whose preload warmed the runner's module (``preload``;
    ``WARMED_WITH``) forks solver processes that have its warm-up and run
    none of their own, when their pool's settings are the ones it warmed
    with; a pool given other settings warms each process as before.  In a
    fresh interpreter: the forkserver, one per process, starts with the
    first pool's preload."""
    script = textwrap.dedent(f"""
        import asyncio, json, time
        from api.pool.solver_pool import SolverPool
        from api.shared.settings import Settings, load_settings

        async def warm_ups(settings: Settings) -> int:
            pool = SolverPool(settings, {RUNNER!r}, preload="tests.pool_warmed")
            await pool.start()
            try:
                outcome = await pool.submit("warm_ups", {{}}, time.monotonic() + 30, 30_000,
                                            asyncio.Event().wait)
                return int(json.loads(outcome.body)["warm_ups"])
            finally:
                await pool.stop()

        print(asyncio.run(warm_ups(load_settings())),
              asyncio.run(warm_ups(Settings(processes=1, log_level="debug"))))
    """)
    # the forkserver's one warm-up alone; then that one and the process's own
    assert _in_a_fresh_interpreter(script, RUMMY_SOLVER_PROCESSES="1").split() == ["1", "2"]


def test_the_services_preload_warms_with_the_environments_settings() -> None:
    """``api.pool.warmed``, the service's forkserver preload, runs the job
    runner's warm-up once and records the settings it ran with, the ones a
    worker started from the same environment gives its pool."""
    script = ("import api.pool.warmed as warmed; from api.shared.settings import load_settings; "
              "print(warmed.WARMED_WITH == load_settings())")
    assert _in_a_fresh_interpreter(script).split() == ["True"]
