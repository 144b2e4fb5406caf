"""Solver processes of one uvicorn worker, with admission control.

The worker's event loop never solves: it parses and checks a request, then
hands a *job* (an operation name, its library arguments, an absolute
deadline) to one of ``settings.processes`` solver processes and awaits the
JSON bytes of the answer.  So a heavy solve can never starve the event loop,
``/healthz`` or uvicorn's worker health check, and a solver process that
misbehaves can be cut short without losing the worker.

* **Deadlines** are ``time.monotonic()`` instants, the same clock in every
  process of the machine; they count from the request's arrival, so time
  spent queued counts.  The solver honours them itself (its answer is then
  the best found, ``api.pool.jobs`` stopping a little before the deadline for
  the way back).  The service promises an answer by the deadline +
  ``PROMISE_S`` (100 ms): an answer that arrives after the deadline but
  before ``LATE_S`` past it is sent as it is; a job whose process is still
  busy then is answered 503 (``SEND_S`` is left to write that answer, so the
  client hears by the promise even when the machine is starved), and killed
  and replaced if still busy ``BACKSTOP_S`` past it.  A job whose deadline
  its own body's reading spent may wait ``SPENT_READ_S`` for a solver, and
  counts both from ``SPENT_READ_S`` after its start: the library's answer
  to a spent limit (``time_limit_too_small``) is the client's to hear.
* **Fair share**: jobs wait in one line per client (``api.pool.fair_queue``): the
  client running fewest jobs goes next, and the last free solver is kept for
  a client running nothing, so long jobs of some clients never hold every
  solver against the others.  A job whose client has had its answer (503
  past the deadline, or gone) no longer counts as that client's.
* **Admission by expected work**: each job's cost is estimated from the jobs
  of its kind and time limit that finished before
  (``api.pool.service_times``: an average, and a cautious figure that jobs
  rarely pass).  When a job arrives, the slots' expected free times (a
  running job's expected end; one running past it is expected to run as long
  again as it has overrun) and the work queued ahead of it say, cautiously,
  when it would start (``expected_start_s``); it is refused at once
  (``Overloaded``: 503 ``overloaded``, ``Retry-After`` the expected wait)
  unless it would start with the time it needs still left (``need_s``: its
  cautious time, at most half its limit), or when ``settings.queue_size``
  jobs already wait and it would start after all of them; one that would
  start before the last takes that one's place, which is refused then
  (``FairQueue.displaced``: a client filling the queue never locks the
  others out).  While jobs wait they are planned again every
  ``RECHECK_S`` in the order they are to start (``FairQueue.ordered``, by
  the average times), and one that can no longer start before its deadline
  (the jobs ahead ran long) is refused then with the same 503, not at its
  deadline; one still waiting at its deadline is refused then.
* **Batch work** (``submit(..., batch=True)``: ``rummy-solver bulk``'s
  chunks, which bulk bounds in number itself) is not admitted by expected
  work: it waits for a solver however long that takes, and its time limit
  counts from its start (a backstop, as for any job).
* **Cancellation**: a client that goes away cancels its job: a waiting job is
  dropped, a running one sees its shared-memory cancel flag within
  milliseconds (the library's deadline checks read it).
* **Memory**: searches freeze what they allocate for the garbage collector
  (``solver.deadline.gc_paused``); a full collection of an idle process is
  started by the pool, one process at a time and only while another solver is
  free, so a collection never delays a job.  A solver process is replaced
  after ``recycle_tasks`` jobs or once it holds ``recycle_rss_mb`` of memory;
  the service's replacements are forked warm (``api.pool.warmed``) and take
  jobs within about 60 ms instead of half a second.
* **Draining**: ``drain(seconds)`` (SIGTERM) answers every job still waiting
  or running after ``seconds`` with a 503, so no request in flight is left for
  the server to cut off.

``settings.processes == 0`` runs jobs in threads of the worker instead (same
queueing and cancellation; no backstop kill): for embedding and tests.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import gc
import itertools
import logging
import math
import multiprocessing
import os
import pickle
import queue
import signal
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Protocol

from api.pool.fair_queue import FairQueue
from api.pool.service_times import ServiceTimes
from api.shared.errors import error_bytes
from api.shared.logs import REQUEST_ID
from api.shared.settings import Settings

logger = logging.getLogger("api.pool")

PROMISE_S = 0.1
"""The service answers by a request's deadline + this (README: Deadlines)."""
SEND_S = 0.035
"""What is kept of ``PROMISE_S`` for an answer the worker has to reach its
client: the timer's turn of the event loop, the socket write and the
client's read took 10-30 ms on a two-core machine at a load of 10."""
LATE_S = PROMISE_S - SEND_S
"""How far past its deadline a job waits for its process before it is
answered 503: an answer arriving before then is sent."""
BACKSTOP_S = 0.3
"""How far past its deadline a solver process may run before it is killed."""
SPENT_READ_S = 0.25
"""How long a job that reached the pool past its deadline + ``LATE_S`` may
wait for a solver, and has from its start before the late answer counts.
Such a job is a request whose own body's reading spent its limit and the
promise with it (a history of a megabyte under ``time_limit_ms: 1``: the worker
takes 200 ms to parse and check it); it starts at once, and its solver
process, seeing the spent deadline, answers as soon as it has the body
read again (the library's 422 ``time_limit_too_small``, or a solve's first
answer): 70 to 140 ms for a megabyte on a loaded two-core machine.
Counted from the deadline instead, the late timer went off at once and
the client got a 503 "the solver overran" for a solver that was never
slow."""
IDLE_COLLECT_S = 0.25
"""A solver process idle this long may be told to run the garbage collector."""
CANCEL_GRACE_S = 0.1
"""How long a cancelled job is expected to take to stop (the library reads its
cancel flag within milliseconds)."""
CANCEL_KILL_S = 1.0
"""How long a cancelled job may take to stop before its process is killed: a
process still busy with the job it was given (it may not have read the flag
yet) is healthy; one that ignores its flag for a second is not."""
START_MARGIN_S = 0.1
"""A waiting job must be expected to start this long (at most a tenth of its
time limit) before its deadline to stay queued."""
NEED_SHARE = 0.5
"""A job is queued only if expected to start with its expected time left, or
this share of its limit when that is less (an anytime job started later than
that answers with little of its budget)."""
RECHECK_S = 0.05
"""How often the waiting jobs are planned again (``SolverPool._recheck``)."""
OVERRUN_FLOOR_S = 0.01
"""A job running past its expected end is expected to run at least this much longer."""
COLLECT_S = 0.1
"""How long a solver process's full garbage collection is expected to take."""
_COLLECT = "collect"
"""The message that tells an idle solver process to run a full garbage collection."""
_READY = "ready"
"""A new solver process's first message: warmed up, ready for jobs."""
SOLVER_NICENESS = 10
"""How much lower a solver process's CPU priority is than its worker's."""
START_TIMEOUT_S = 60.0
"""How long a new solver process may take to import and warm up."""

Payload = dict[str, Any]
JobRunner = Callable[[str, Payload, float, float, Callable[[], bool], Settings, str],
                     tuple[int, bytes, dict[str, Any]]]
"""``(op, payload, deadline_at, budget_ms, cancelled, settings, request_id) ->
(status, body, log fields)``."""


class Overloaded(Exception):
    """The job cannot be served in time: answer 503 with ``Retry-After``."""

    def __init__(self, reason: str, retry_after_s: float) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after_s = max(1, math.ceil(retry_after_s))


@dataclass(frozen=True, slots=True)
class Outcome:
    """A job's answer: HTTP status, JSON body, fields for the access log."""

    status: int
    body: bytes
    log: dict[str, Any]


@dataclass(eq=False)
class _Job:
    id: int
    op: str
    payload: Payload
    deadline_at: float
    budget_ms: float
    future: asyncio.Future[Outcome]
    request_id: str = "-"
    client: str = "-"
    kind: str = ""
    estimate_s: float = 0.0
    """How long the job is expected to hold its solver (its kind's average)."""
    cautious_s: float = 0.0
    """... and how long it rarely holds it longer than (what admission plans with)."""
    started_at: float = 0.0
    spent: bool = False
    """It reached the pool past its deadline + ``LATE_S``: its own body's
    reading spent the deadline and the promise with it (``SPENT_READ_S``)."""
    start_by: float = math.inf
    """The latest a waiting job may still start: its deadline, or, for a
    ``spent`` one, ``SPENT_READ_S`` after it reached the pool; a batch job
    has none."""
    stop_by: float = math.inf
    """When a job answered early (cancelled, or late) should have left its process."""
    timer: asyncio.TimerHandle | None = None
    cancelled: bool = False
    counted: bool = True
    """Whether the job still counts as running for its client's fair share:
    until it leaves its slot, or its client has been answered (late, or gone)."""
    batch_limit_s: float | None = None
    """A batch job's time limit, counted from when it starts (``submit``'s ``batch``)."""

    @property
    def limit_s(self) -> float:
        """The job's time limit (its deadline counts from its request's arrival)."""
        return self.budget_ms / 1000.0

    @property
    def due_at(self) -> float:
        """What the late answer and the backstop count from: the deadline, or,
        for a ``spent`` job, ``SPENT_READ_S`` after its start."""
        return self.started_at + SPENT_READ_S if self.spent else self.deadline_at

    def margin_s(self) -> float:
        """How long before its deadline a waiting job must still be expected to start."""
        return min(START_MARGIN_S, self.limit_s / 10)

    def need_s(self) -> float:
        """The time a job must be expected to have left when it starts, to be queued."""
        return max(self.margin_s(), min(self.cautious_s, NEED_SHARE * self.limit_s))


class _Slot(Protocol):
    job: _Job | None
    broken: bool
    collecting: bool
    untidy: int
    idle_since: float

    def attach(self) -> None: ...
    def detach(self) -> None: ...
    def send(self, job: _Job) -> None: ...
    def collect(self) -> None: ...
    def cancel(self) -> None: ...
    def kill(self) -> None: ...
    def close(self) -> None: ...


def _rss_mb() -> float:
    """Resident memory of this process, MB."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_runner(path: str) -> JobRunner:
    """The job runner ``"module:function"`` names."""
    import importlib

    module_name, _, function_name = path.partition(":")
    runner: JobRunner = getattr(importlib.import_module(module_name), function_name)
    return runner


def _child_main(conn: Connection, cancel: Any, config: Settings, runner_path: str,
                niceness: int = SOLVER_NICENESS, preload: str | None = None) -> None:
    """A solver process: run jobs one at a time until told to stop or recycled."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the worker's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Below the worker's event loop (SolverPool's niceness): when solves fill
    # every core, the loop must still get the CPU to answer each request by
    # its deadline.
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)
    import logging.config

    from api.shared.logs import log_config

    logging.config.dictConfig(log_config(config.log_level))
    runner = load_runner(runner_path)
    config.apply_to_engines()
    # The runner's module may warm the process up (api.pool.jobs.warm_up: first
    # calls build caches without deadline checks); no job waits meanwhile.  A
    # process forked from a forkserver whose preload warmed it with these
    # settings (``SolverPool``'s ``preload``) has what the warm-up builds.
    import importlib

    warm_up = getattr(importlib.import_module(runner_path.partition(":")[0]), "warm_up", None)
    warmed_with = getattr(sys.modules.get(preload or ""), "WARMED_WITH", None)
    if warm_up is not None and warmed_with != config:
        warm_up(config)
    try:
        conn.send(_READY)
    except (OSError, BrokenPipeError):
        return
    done = 0
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        if message == _COLLECT:
            # Searches pause the collector and freeze what they allocated
            # (solver.deadline.gc_paused); the cycles among it are found here,
            # when the pool says no job needs this process (a full collection
            # over the caches costs up to half a second after heavy work).
            gc.unfreeze()
            gc.collect()
            try:
                conn.send(_COLLECT)
            except (OSError, BrokenPipeError):
                return
            continue
        job_id, op, payload, deadline_at, budget_ms, request_id = message
        status, body, log = runner(op, payload, deadline_at, budget_ms,
                                   lambda: cancel.value != 0, config, request_id)
        done += 1
        recycle = done >= config.recycle_tasks or _rss_mb() > config.recycle_rss_mb
        try:
            conn.send((job_id, status, body, log, recycle))
        except (OSError, BrokenPipeError):
            return
        if recycle:
            return


class _ProcessSlot:
    """One solver process and the job it runs."""

    def __init__(self, pool: SolverPool, context: Any = None) -> None:
        self.pool = pool
        ctx = pool.context if context is None else context
        self.cancel_flag = ctx.RawValue("i", 0)
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_child_main,
            args=(child, self.cancel_flag, pool.settings, pool.runner_path, pool.niceness,
                  pool.preload),
            daemon=True, name="rummy-solver-child")
        self.process.start()
        child.close()
        # Blocking (slots start in a thread): a slot takes jobs once its process is warm.
        if not self.conn.poll(START_TIMEOUT_S) or self.conn.recv() != _READY:
            self.process.kill()
            raise OSError("a solver process did not start")
        self.job: _Job | None = None
        self.broken = False
        self.collecting = False
        self.untidy = 0  # jobs run since the last collection
        self.idle_since = 0.0

    def attach(self) -> None:
        """Start listening for answers (on the loop)."""
        self.pool.loop.add_reader(self.conn.fileno(), self._readable)
        # uvloop (libuv) makes a watched descriptor non-blocking; an answer
        # larger than the pipe's buffer then read as "the process exited".
        os.set_blocking(self.conn.fileno(), True)

    def detach(self) -> None:
        """Stop listening (on the loop)."""
        with contextlib.suppress(OSError, ValueError):
            self.pool.loop.remove_reader(self.conn.fileno())

    def send(self, job: _Job) -> None:
        self.cancel_flag.value = 0
        self.job = job
        self.conn.send((job.id, job.op, job.payload, job.deadline_at, job.budget_ms,
                        job.request_id))

    def collect(self) -> None:
        self.collecting = True
        self.conn.send(_COLLECT)

    def cancel(self) -> None:
        self.cancel_flag.value = 1

    def _readable(self) -> None:
        try:
            message = self.conn.recv()
        except (EOFError, OSError, pickle.UnpicklingError):
            self.pool.loop.remove_reader(self.conn.fileno())
            self.broken = True
            self.pool.slot_failed(self, "the solver process exited")
            return
        if message == _COLLECT:
            self.pool.slot_collected(self)
            return
        job_id, status, body, log, recycle = message
        if recycle:
            self.pool.loop.remove_reader(self.conn.fileno())
            self.broken = True
        self.pool.slot_done(self, job_id, Outcome(status, body, log))

    def kill(self) -> None:
        self.broken = True
        self.detach()
        with contextlib.suppress(OSError, AttributeError):
            self.process.kill()

    def close(self) -> None:
        """Stop the process (blocking: call off the loop, after ``detach``)."""
        with contextlib.suppress(OSError, BrokenPipeError, ValueError):
            self.conn.send(None)
        self.conn.close()
        self.process.join(timeout=1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=1)


class _Flag:
    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value = 0


class _ThreadSlot:
    """A thread that runs jobs (``processes == 0``): no process to kill."""

    def __init__(self, pool: SolverPool) -> None:
        self.pool = pool
        self.runner = load_runner(pool.runner_path)
        self.flag = _Flag()
        self.inbox: queue.Queue[_Job | None] = queue.Queue()
        self.job: _Job | None = None
        self.broken = False
        self.collecting = False
        self.untidy = 0
        self.idle_since = 0.0
        self.thread = threading.Thread(target=self._run, daemon=True, name="rummy-solver-thread")
        self.thread.start()

    def _run(self) -> None:
        while True:
            job = self.inbox.get()
            if job is None:
                return
            try:
                status, body, log = self.runner(
                    job.op, job.payload, job.deadline_at, job.budget_ms,
                    lambda: self.flag.value != 0, self.pool.settings, job.request_id)
            except BaseException as exc:  # the runner maps errors itself; never lose a job
                logger.error("solver thread failed", exc_info=exc)
                status, body, log = 503, b'{"detail":"the solver failed"}', {}
            outcome = Outcome(status, body, log)
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                self.pool.loop.call_soon_threadsafe(self.pool.slot_done, self, job.id, outcome)

    def attach(self) -> None:
        pass

    def detach(self) -> None:
        pass

    def send(self, job: _Job) -> None:
        self.flag.value = 0
        self.job = job
        self.inbox.put(job)

    def collect(self) -> None:
        pass  # threads share the worker's collector

    def cancel(self) -> None:
        self.flag.value = 1

    def kill(self) -> None:
        self.broken = True  # the thread finishes on its own; a new slot replaces it
        self.flag.value = 1
        self.inbox.put(None)

    def close(self) -> None:
        self.flag.value = 1
        self.inbox.put(None)


class SolverPool:
    """The solver processes (or threads) of one worker; see the module docstring.

    ``fair``: keep the last free solver for a client running nothing (the
    service; ``bulk``, one client, uses every process).  ``niceness``: how much
    lower the solver processes' CPU priority is than this process's
    (``SOLVER_NICENESS`` under an event loop that must answer requests by
    their deadlines; bulk's loop only hands out chunks, and its processes
    run at the priority its user gave the command).  ``preload``: a module
    the forkserver imports after the runner's; one that warmed the runner's
    module there (its ``WARMED_WITH``: the settings it warmed with, as
    ``api.pool.warmed`` does) spares every solver process forked with those
    settings, and every replacement, its own warm-up."""

    def __init__(self, settings: Settings, runner_path: str,
                 on_change: Callable[[SolverPool], None] | None = None, fair: bool = True,
                 niceness: int = SOLVER_NICENESS, preload: str | None = None) -> None:
        self.settings = settings
        self.runner_path = runner_path
        self.preload = preload
        self.niceness = niceness
        self.on_change = on_change
        self.pending: FairQueue[_Job] = FairQueue(reserve=1 if fair and self.size > 1 else 0)
        self.times = ServiceTimes()
        self.slots: list[_Slot] = []
        self.ids = itertools.count(1)
        self.start_s = 0.5  # how long starting a solver process takes (measured)
        self.running = False
        self.context: Any = None
        self.forked: list[_Slot] = []  # started by fork_processes, for start to take
        self.collect_timer: asyncio.TimerHandle | None = None
        self.recheck_timer: asyncio.TimerHandle | None = None
        self.swaps: set[asyncio.Task[None]] = set()  # slots being replaced
        self.loop: asyncio.AbstractEventLoop  # set by start()

    @property
    def size(self) -> int:
        """Slots (solver processes or threads)."""
        return max(1, self.settings.processes)

    @property
    def queue_depth(self) -> int:
        """Jobs waiting for a slot."""
        return len(self.pending)

    @property
    def busy(self) -> int:
        """Slots running a job."""
        return sum(1 for slot in self.slots if slot.job is not None)

    def fork_processes(self) -> bool:
        """Start the solver processes now by ``fork`` of this process, for
        ``start`` to take; only where that is safe: Linux, and no thread but
        this one (a fork copies no other thread, and a lock one of them held
        would stay locked in the child).  Whether it did.

        A forked process starts with this process's imports, in milliseconds;
        the forkserver (what ``start`` uses otherwise, and every replacement
        uses) first imports the runner's module in a fresh interpreter, a
        second or more.  Call it before writing output: a process copies
        what this one has buffered."""
        if (not self.settings.processes or self.forked
                or not sys.platform.startswith("linux") or threading.active_count() > 1):
            return False
        context = multiprocessing.get_context("fork")
        for _ in range(self.size):  # one by one: stop() closes those started if one fails
            self.forked.append(_ProcessSlot(self, context))
        return True

    async def start(self) -> None:
        """Start the slots (in a thread: spawning processes blocks for a moment),
        or take those ``fork_processes`` started."""
        self.loop = asyncio.get_running_loop()
        if self.settings.processes:
            self.context = multiprocessing.get_context("forkserver")
            module = self.runner_path.partition(":")[0]
            self.context.set_forkserver_preload([module, *filter(None, [self.preload])])
        forked, self.forked = self.forked, []
        self.slots = forked + list(await asyncio.gather(*(
            asyncio.to_thread(self._new_slot) for _ in range(self.size - len(forked)))))
        for slot in self.slots:
            slot.attach()
        self.running = True

    def _new_slot(self) -> _Slot:
        started = time.monotonic()
        slot = _ProcessSlot(self) if self.settings.processes else _ThreadSlot(self)
        self.start_s = time.monotonic() - started
        return slot

    async def stop(self) -> None:
        """Refuse what waits, stop every slot."""
        self.running = False
        for timer in (self.collect_timer, self.recheck_timer):
            if timer is not None:
                timer.cancel()
        for job in self.pending.clear():
            self._finish(job, _unavailable("the service is shutting down"))
        if self.swaps:  # a replacement still starting: it sees running is False and stops
            await asyncio.gather(*self.swaps, return_exceptions=True)
        slots, self.slots = self.slots + self.forked, []
        self.forked = []
        for slot in slots:
            slot.detach()
        await asyncio.gather(*(asyncio.to_thread(slot.close) for slot in slots))

    # -- submitting -------------------------------------------------------------
    def _free_at(self, slot: _Slot, now: float, cautious: bool = False) -> float:
        """When ``slot`` is expected to take a new job (``cautious``: by its
        job's cautious time rather than its average)."""
        job = slot.job
        if job is None:
            if slot.collecting:
                return now + COLLECT_S
            return now + (self.start_s if slot.broken else 0.0)
        if job.future.done():  # answered late or cancelled: its process stops soon
            return max(now, min(job.stop_by, job.due_at + BACKSTOP_S))
        end = job.started_at + (job.cautious_s if cautious else job.estimate_s)
        if end <= now:
            # Longer than expected: expect it to run as long again as
            # it has overrun (a job that overran by much is a heavy one).
            end = now + max(now - end, OVERRUN_FLOOR_S)
        return max(now, min(end, job.due_at + LATE_S))

    def _free_times(self, now: float, cautious: bool = False) -> list[float]:
        """Every slot's expected free time, earliest first."""
        return sorted(self._free_at(slot, now, cautious) for slot in self.slots)

    def expected_start_s(self, client: str = "-") -> float:
        """Seconds until a new job of ``client`` would start, cautiously: the
        waiting work that goes first (``FairQueue.work_ahead``, each job's
        cautious time) poured onto the slots from their expected free times
        (``_filled``).  A client already running a job may not take the last
        free solver (the fair queue keeps it for a client running nothing), so
        for it the earliest slot does not count."""
        if not self.slots:
            return self.start_s
        now = self.loop.time()
        free = self._free_times(now, cautious=True)
        if self.pending.running.get(client) and self.pending.reserve:
            free = free[min(self.pending.reserve, len(free) - 1):]
        return max(0.0, _filled(free, self.pending.work_ahead(client)) - now)

    async def submit(self, op: str, payload: Payload, deadline_at: float, budget_ms: float,
                     disconnected: Callable[[], Awaitable[Any]], request_id: str = "-", *,
                     client: str = "-", kind: str | None = None,
                     batch: bool = False) -> Outcome:
        """Run a job and return its answer; raises ``Overloaded`` when it cannot
        start in time.  ``disconnected`` returns once the client went away;
        ``client`` is whose job it is (fair share), ``kind`` what it is like
        (its cost estimate, with its limit ``budget_ms``; default: the operation).

        ``batch``: work nobody waits on by a deadline (``rummy-solver bulk``'s
        chunks), queued until a solver is free however long that takes: never
        refused for the wait (the caller bounds how many it queues; only a
        full queue or a pool that stops refuses it), and its time limit
        (``deadline_at`` less now) counts from when it starts."""
        if not self.running:
            raise Overloaded("the service is shutting down", 1)
        now = self.loop.time()
        wait = self.expected_start_s(client)
        displaced = None
        if len(self.pending) >= self.settings.queue_size:
            displaced = self.pending.displaced(client)
            if displaced is None:
                raise Overloaded(f"{len(self.pending)} requests are already waiting for a solver "
                                 f"(RUMMY_SOLVER_QUEUE_SIZE), as many of this client's as of "
                                 f"any other's", wait)
        if batch:
            self._give_way(displaced)
            return await self._run_batch(op, payload, deadline_at - now, budget_ms,
                                         disconnected, request_id, client,
                                         op if kind is None else kind)
        kind = op if kind is None else kind
        job = _Job(next(self.ids), op, payload, deadline_at, budget_ms, self.loop.create_future(),
                   request_id, client, kind, self.times.estimate(kind, budget_ms / 1000.0),
                   self.times.cautious(kind, budget_ms / 1000.0))
        # A job that would start with less time left than it needs is refused
        # now, not at its deadline.  One that can start at once is taken even
        # late (even past a 1 ms limit): the library answers by the deadline +
        # 100 ms with what it can, a 422 for a bad body first of all.  One
        # whose own body's reading spent its deadline and the promise with it
        # (``spent``) may wait SPENT_READ_S for a solver (one collecting its
        # garbage, say): the library's answer to it, time_limit_too_small, is
        # the client's to hear, not a 503 that a retry would get again.
        job.spent = now >= deadline_at + LATE_S
        job.start_by = now + SPENT_READ_S if job.spent else deadline_at
        if wait > 0 and now + wait + (0.0 if job.spent else job.need_s()) > job.start_by:
            raise Overloaded(f"the solvers are busy: this request would wait about "
                             f"{wait * 1000:.0f} ms, too close to its deadline", wait)
        self._give_way(displaced)
        self.pending.push(client, job, job.cautious_s)
        job.timer = self.loop.call_at(job.start_by, self._expire, job)
        return await self._await(job, disconnected)

    def _give_way(self, job: _Job | None) -> None:
        """Refuse ``job``, waiting in a full queue, for a new job that goes before
        it (``FairQueue.displaced``): 503 ``overloaded`` with ``Retry-After``."""
        if job is None or not self.pending.remove(job):
            return
        if job.timer is not None:
            job.timer.cancel()
        self._finish(job, _overloaded(
            f"{self.settings.queue_size} requests were waiting for a solver "
            f"(RUMMY_SOLVER_QUEUE_SIZE), more of this client's than of any other's: this one, "
            f"its latest, gave its place to another client's request",
            self.expected_start_s(job.client)))

    async def _run_batch(self, op: str, payload: Payload, limit_s: float, budget_ms: float,
                         disconnected: Callable[[], Awaitable[Any]], request_id: str,
                         client: str, kind: str) -> Outcome:
        """A ``batch`` job (see ``submit``): queued without a deadline while it
        waits (``_dispatch`` gives it ``limit_s`` from its start)."""
        job = _Job(next(self.ids), op, payload, math.inf, budget_ms, self.loop.create_future(),
                   request_id, client, kind, self.times.estimate(kind, limit_s),
                   self.times.cautious(kind, limit_s), batch_limit_s=limit_s)
        self.pending.push(client, job, job.estimate_s)
        return await self._await(job, disconnected)

    async def _await(self, job: _Job, disconnected: Callable[[], Awaitable[Any]]) -> Outcome:
        """Dispatch a queued ``job`` and wait for its answer, or for its client to leave."""
        self._dispatch()
        if self.pending and self.recheck_timer is None:
            self.recheck_timer = self.loop.call_later(RECHECK_S, self._recheck)
        watcher = asyncio.ensure_future(disconnected())
        try:
            await asyncio.wait({job.future, watcher}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not watcher.done():
                watcher.cancel()
        if not job.future.done():
            self._cancel(job)
            return Outcome(499, b"", {"cancelled": True})  # nobody is left to read it
        return job.future.result()

    def _recheck(self) -> None:
        """Plan the waiting jobs again: in the order they are to start, each
        takes the earliest free slot (the second earliest for a client already
        running one: ``expected_start_s``) for its expected time, at most to
        its deadline; one that would start too close to its deadline
        (``margin_s``) is refused now and leaves its turn to the next."""
        self.recheck_timer = None
        if not self.running or not self.pending or not self.slots:
            return
        now = self.loop.time()
        free = self._free_times(now)
        running = dict(self.pending.running)
        reserve = self.pending.reserve
        for client, job in self.pending.ordered():
            start = free[min(reserve if running.get(client) else 0, len(free) - 1)]
            if start + job.margin_s() > job.start_by:
                self.pending.remove(job)
                if job.timer is not None:
                    job.timer.cancel()
                self._finish(job, _overloaded("the solvers are busy: the work ahead of this "
                                              "request means it cannot start before its deadline",
                                              start - now))
                continue
            bisect.insort(free, start + max(0.0, min(job.estimate_s, job.deadline_at - start)))
            del free[0]
            running[client] = running.get(client, 0) + 1
        if self.pending:
            self.recheck_timer = self.loop.call_later(RECHECK_S, self._recheck)

    def _expire(self, job: _Job) -> None:
        """A job's deadline came while it still waited for a slot (the last
        ``_recheck`` expected it to start in time)."""
        if self.pending.remove(job):
            self._finish(job, _overloaded("the request waited for a solver until its deadline",
                                          self.expected_start_s(job.client)))

    def _cancel(self, job: _Job) -> None:
        job.cancelled = True
        if self.pending.remove(job):
            if job.timer is not None:
                job.timer.cancel()
            return
        for slot in self.slots:
            if slot.job is job:
                slot.cancel()
                if job.timer is not None:
                    job.timer.cancel()
                now = self.loop.time()
                job.stop_by = now + CANCEL_GRACE_S
                job.timer = self.loop.call_at(now + CANCEL_KILL_S, self._overdue, slot, job,
                                              "cancelled")
                self._finish(job, Outcome(499, b"", {"cancelled": True}))
                self._uncount(job)

    def _usable(self) -> list[tuple[int, _Slot]]:
        return [(index, slot) for index, slot in enumerate(self.slots)
                if slot.job is None and not slot.broken and not slot.collecting]

    def _dispatch(self) -> None:
        free = self._usable()
        while free and self.pending:
            job = self.pending.pop(len(free))
            if job is None:
                break
            index, slot = free.pop(0)
            if job.timer is not None:
                job.timer.cancel()
            job.started_at = self.loop.time()
            if job.batch_limit_s is not None:
                job.deadline_at = job.started_at + job.batch_limit_s
            try:
                slot.send(job)
            except (OSError, BrokenPipeError, ValueError):
                slot.job = None
                self.pending.finished(job.client)
                self.pending.push(job.client, job, job.cautious_s)
                self._replace(index, slot)
                continue
            job.timer = self.loop.call_at(job.due_at + LATE_S, self._late, slot, job)
        self._schedule_collection()
        if self.on_change is not None:
            self.on_change(self)

    # -- garbage collection -----------------------------------------------------
    def _schedule_collection(self) -> None:
        if self.collect_timer is None and self.running and any(
                slot.untidy and slot.job is None for slot in self.slots):
            self.collect_timer = self.loop.call_later(IDLE_COLLECT_S, self._collect_one)

    def _collect_one(self) -> None:
        """Tell one idle, untidy solver process to collect, if another solver
        stays free for a job meanwhile (or, with one solver, it has been idle
        a while and nothing waits)."""
        self.collect_timer = None
        if not self.running or any(slot.collecting for slot in self.slots):
            return
        now = self.loop.time()
        idle = [slot for _, slot in self._usable()]
        candidates = [slot for slot in idle if slot.untidy and now - slot.idle_since >= IDLE_COLLECT_S]
        if not candidates or self.pending or (len(idle) < 2 and len(self.slots) > 1):
            self._schedule_collection()
            return
        slot = max(candidates, key=lambda s: s.untidy)
        try:
            slot.collect()
        except (OSError, BrokenPipeError, ValueError):
            slot.collecting = False
            return
        slot.untidy = 0

    def slot_collected(self, slot: _Slot) -> None:
        """A solver process finished its collection (called on the loop)."""
        slot.collecting = False
        self._dispatch()

    # -- answers ----------------------------------------------------------------
    def _release(self, slot: _Slot, job: _Job) -> None:
        """``job`` left ``slot``: the slot is free, its client runs one job less."""
        slot.job = None
        slot.untidy += 1
        slot.idle_since = self.loop.time()
        self._uncount(job)

    def _uncount(self, job: _Job) -> None:
        """``job`` no longer counts as running for its client."""
        if job.counted:
            job.counted = False
            self.pending.finished(job.client)

    def slot_done(self, slot: _Slot, job_id: int, outcome: Outcome) -> None:
        """A slot answered a job (called on the loop)."""
        job = slot.job
        if job is None or job.id != job_id:
            return  # an answer to a job already given up on
        self._release(slot, job)
        if job.timer is not None:
            job.timer.cancel()
        now = self.loop.time()
        if not job.cancelled:  # a cancelled job's time says nothing of its kind
            self.times.observe(job.kind, job.limit_s, now - job.started_at,
                               job.deadline_at - job.started_at)
        if job.future.done() and not job.cancelled:
            _log(job, logging.WARNING, "solver process answered %s %.0f ms past its deadline, "
                 "after its 503", job.op, (now - job.deadline_at) * 1000)
        self._finish(job, outcome)
        if slot.broken and slot in self.slots:
            self._replace(self.slots.index(slot), slot)
        self._dispatch()

    def slot_failed(self, slot: _Slot, why: str) -> None:
        """A slot's process died (called on the loop)."""
        job = slot.job
        if job is not None:
            self._release(slot, job)
            logger.error("solver process died running %s (%s)", job.op, why)
            self._finish(job, _unavailable(f"{why} while solving; retry", 1))
        if slot in self.slots:
            self._replace(self.slots.index(slot), slot)
        self._dispatch()

    def _late(self, slot: _Slot, job: _Job) -> None:
        """A job still running past its deadline: answer 503 now; its process
        may still finish (and take the next job) until the backstop."""
        if slot.job is not job:
            return
        _log(job, logging.WARNING, "solver process late on %s by %.0f ms; answering 503",
             job.op, (self.loop.time() - job.deadline_at) * 1000)
        self._finish(job, _unavailable_retry("the solver overran the request's deadline"))
        # Its client has its answer: its next request is not one behind this
        # job's tail (the fair queue would keep it off the last free solver).
        self._uncount(job)
        job.timer = self.loop.call_at(job.due_at + BACKSTOP_S, self._overdue, slot, job)

    def _overdue(self, slot: _Slot, job: _Job, why: str = "late") -> None:
        """The backstop: a job still running well past its deadline (or its
        cancellation) is cut short with its process."""
        if slot.job is not job:
            return
        self._release(slot, job)
        if why == "cancelled":
            logger.warning("solver process did not stop %s within %.0f ms of its cancellation; "
                           "replacing it", job.op, CANCEL_KILL_S * 1000)
        else:
            logger.error("solver process overran the deadline of %s by %.0f ms; replacing it",
                         job.op, (self.loop.time() - job.deadline_at) * 1000)
        slot.kill()
        self._finish(job, _unavailable_retry("the solver overran the request's deadline"))
        if slot in self.slots:
            self._replace(self.slots.index(slot), slot)
        self._dispatch()

    def _replace(self, index: int, old: _Slot) -> None:
        """Swap a broken or recycled slot for a new one (started off the loop)."""
        placeholder = _Starting()
        self.slots[index] = placeholder
        old.detach()

        async def swap() -> None:
            await asyncio.to_thread(old.close)
            if not self.running:
                return
            try:
                fresh = await asyncio.to_thread(self._new_slot)
            except Exception as exc:  # pragma: no cover - the machine is out of processes
                logger.error("could not start a solver process", exc_info=exc)
                await asyncio.sleep(1)
                fresh = await asyncio.to_thread(self._new_slot)
            if placeholder in self.slots and self.running:
                fresh.attach()
                self.slots[self.slots.index(placeholder)] = fresh
                self._dispatch()
            else:
                await asyncio.to_thread(fresh.close)

        task = self.loop.create_task(swap())
        self.swaps.add(task)
        task.add_done_callback(self.swaps.discard)

    def _finish(self, job: _Job, outcome: Outcome) -> None:
        if job.timer is not None and outcome.status != 499:
            job.timer.cancel()
        if not job.future.done():
            job.future.set_result(outcome)


class _Starting:
    """A slot being (re)started: takes no job yet."""

    job: _Job | None = None
    broken = True
    collecting = False
    untidy = 0
    idle_since = 0.0

    def collect(self) -> None:
        pass

    def attach(self) -> None:
        pass

    def detach(self) -> None:
        pass

    def send(self, job: _Job) -> None:  # pragma: no cover - never chosen
        raise OSError("slot starting")

    def cancel(self) -> None:
        pass

    def kill(self) -> None:
        pass

    def close(self) -> None:
        pass


def _retry_seconds(retry_after_s: float) -> int:
    """The whole seconds of a ``Retry-After`` (at least 1)."""
    return max(1, math.ceil(retry_after_s))


def _unavailable(detail: str, retry_after_s: float = 1) -> Outcome:
    """A 503 answer with ``Retry-After`` (the pool could not answer in time)."""
    return Outcome(503, error_bytes("unavailable", detail),
                   {"retry_after": _retry_seconds(retry_after_s), "deadline_hit": True})


def _unavailable_retry(detail: str, retry_after_s: float = 1) -> Outcome:
    """``_unavailable`` whose message ends with when to retry: the seconds
    its ``Retry-After`` gives."""
    return _unavailable(f"{detail}; retry in {_retry_seconds(retry_after_s)} s", retry_after_s)


def _log(job: _Job, level: int, message: str, *args: object) -> None:
    """Log about ``job`` under its request's id (a timer or a pipe's callback
    runs in whichever request's context scheduled it, or none)."""
    token = REQUEST_ID.set(job.request_id)
    try:
        logger.log(level, message, *args)
    finally:
        REQUEST_ID.reset(token)


def _filled(free: list[float], work: float) -> float:
    """When slots that free at ``free`` (sorted) have done ``work`` seconds
    more between them: the level ``t`` with ``sum(max(0, t - f)) == work``.

    >>> _filled([0.0, 1.0, 1.0], 0.5), _filled([0.0, 1.0, 1.0], 2.5), _filled([2.0], 0.0)
    (0.5, 1.5, 2.0)
    """
    level = free[0]
    for active in range(1, len(free) + 1):
        following = free[active] if active < len(free) else math.inf
        if work <= active * (following - level):
            return level + work / active
        work -= active * (following - level)
        level = following
    return level  # pragma: no cover - the last step always fits


def _overloaded(detail: str, retry_after_s: float) -> Outcome:
    """A waiting job refused: 503 ``overloaded`` with ``Retry-After`` (as ``Overloaded``)."""
    return Outcome(503, error_bytes("overloaded", f"{detail}; retry in "
                                                  f"{max(1, math.ceil(retry_after_s))} s"),
                   {"retry_after": max(1, math.ceil(retry_after_s)), "deadline_hit": True,
                    "shed": True})


def now() -> float:
    """The pool's clock (``time.monotonic``)."""
    return time.monotonic()
