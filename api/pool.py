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
  the best found); a job whose process is still busy
  is answered 503 ``LATE_S`` past its deadline (so the client hears by the
  deadline + 100 ms even when the machine is starved), and killed and
  replaced if still busy ``BACKSTOP_S`` past it.
* **Admission**: at most ``settings.queue_size`` jobs wait per worker.  A job
  is refused at once (``Overloaded``: 503 with ``Retry-After``) when the queue
  is full or when, by the recent service times, it could not start before
  its deadline; a job still waiting at its deadline is refused then.
* **Cancellation**: a client that goes away cancels its job: a waiting job is
  dropped, a running one sees its shared-memory cancel flag within
  milliseconds (the library's deadline checks read it).
* **Memory**: a solver process is replaced after ``recycle_tasks`` jobs or
  once it holds ``recycle_rss_mb`` of memory.

``settings.processes == 0`` runs jobs in threads of the worker instead (same
queueing and cancellation; no backstop kill): for embedding and tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import heapq
import itertools
import logging
import math
import multiprocessing
import os
import pickle
import queue
import signal
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Protocol

from api.settings import Settings

logger = logging.getLogger("api.pool")

LATE_S = 0.05
"""How far past its deadline a job waits for its process before it is answered 503."""
BACKSTOP_S = 0.3
"""How far past its deadline a solver process may run before it is killed."""
IDLE_COLLECT_S = 0.25
"""A solver process idle this long runs the garbage collector."""
CANCEL_GRACE_S = 0.1
"""How long a cancelled job may take to stop before its process is killed."""
_EWMA = 0.2

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
    started_at: float = 0.0
    timer: asyncio.TimerHandle | None = None


class _Slot(Protocol):
    job: _Job | None
    broken: bool

    def attach(self) -> None: ...
    def detach(self) -> None: ...
    def send(self, job: _Job) -> None: ...
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


def _child_main(conn: Connection, cancel: Any, config: Settings, runner_path: str) -> None:
    """A solver process: run jobs one at a time until told to stop or recycled."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the worker's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    import logging.config

    from api.logs import log_config

    logging.config.dictConfig(log_config(os.environ.get("RUMMY_SOLVER_LOG_LEVEL",
                                                        config.log_level)))
    runner = load_runner(runner_path)
    config.apply_to_engines()
    done = 0
    untidy = False
    while True:
        try:
            if untidy and not conn.poll(IDLE_COLLECT_S):
                # Idle: searches pause the collector and freeze what they
                # allocated (solver.deadline.gc_paused); look at it now, when no
                # job waits, rather than after every job (a full collection
                # over the caches costs tens of milliseconds).
                gc.unfreeze()
                gc.collect()
                untidy = False
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
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
        untidy = True


class _ProcessSlot:
    """One solver process and the job it runs."""

    def __init__(self, pool: SolverPool) -> None:
        self.pool = pool
        ctx = pool.context
        self.cancel_flag = ctx.RawValue("i", 0)
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(
            target=_child_main,
            args=(child, self.cancel_flag, pool.settings, pool.runner_path),
            daemon=True, name="rummy-solver-child")
        self.process.start()
        child.close()
        self.job: _Job | None = None
        self.broken = False

    def attach(self) -> None:
        """Start listening for answers (on the loop)."""
        self.pool.loop.add_reader(self.conn.fileno(), self._readable)

    def detach(self) -> None:
        """Stop listening (on the loop)."""
        with contextlib.suppress(OSError, ValueError):
            self.pool.loop.remove_reader(self.conn.fileno())

    def send(self, job: _Job) -> None:
        self.cancel_flag.value = 0
        self.job = job
        self.conn.send((job.id, job.op, job.payload, job.deadline_at, job.budget_ms,
                        job.request_id))

    def cancel(self) -> None:
        self.cancel_flag.value = 1

    def _readable(self) -> None:
        try:
            job_id, status, body, log, recycle = self.conn.recv()
        except (EOFError, OSError, pickle.UnpicklingError):
            self.pool.loop.remove_reader(self.conn.fileno())
            self.broken = True
            self.pool.slot_failed(self, "the solver process exited")
            return
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
    """The solver processes (or threads) of one worker; see the module docstring."""

    def __init__(self, settings: Settings, runner_path: str,
                 on_change: Callable[[SolverPool], None] | None = None) -> None:
        self.settings = settings
        self.runner_path = runner_path
        self.on_change = on_change
        self.pending: deque[_Job] = deque()
        self.slots: list[_Slot] = []
        self.ids = itertools.count(1)
        self.service_s = 0.005  # moving average of how long a job holds a slot
        self.start_s = 0.5  # how long starting a solver process takes (measured)
        self.running = False
        self.context: Any = None
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

    async def start(self) -> None:
        """Start the slots (in a thread: spawning processes blocks for a moment)."""
        self.loop = asyncio.get_running_loop()
        if self.settings.processes:
            self.context = multiprocessing.get_context("forkserver")
            module = self.runner_path.partition(":")[0]
            self.context.set_forkserver_preload([module])
        self.slots = list(await asyncio.gather(*(
            asyncio.to_thread(self._new_slot) for _ in range(self.size))))
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
        while self.pending:
            job = self.pending.popleft()
            self._finish(job, _unavailable("the service is shutting down"))
        slots, self.slots = self.slots, []
        for slot in slots:
            slot.detach()
        await asyncio.gather(*(asyncio.to_thread(slot.close) for slot in slots))

    # -- submitting -------------------------------------------------------------
    def expected_start_s(self) -> float:
        """Seconds until a new job would start: each slot frees when its job
        is expected to end (by the recent service time, and at the latest at
        its deadline), a restarting slot after a process start; the jobs
        already waiting go first."""
        now = self.loop.time()
        free_at = []
        for slot in self.slots:
            job = slot.job
            if job is None:
                free_at.append(now + (self.start_s if slot.broken else 0.0))
            elif job.future.done():  # answered late: its process may run to the backstop
                free_at.append(max(now, job.deadline_at + BACKSTOP_S))
            else:
                free_at.append(max(now, min(job.started_at + self.service_s,
                                            job.deadline_at + LATE_S)))
        if not free_at:
            return self.start_s
        heapq.heapify(free_at)
        for job in self.pending:
            start = heapq.heappop(free_at)
            heapq.heappush(free_at, start + max(0.0, min(self.service_s, job.deadline_at - start)))
        return max(0.0, free_at[0] - now)

    async def submit(self, op: str, payload: Payload, deadline_at: float, budget_ms: float,
                     disconnected: Callable[[], Awaitable[Any]], request_id: str = "-") -> Outcome:
        """Run a job and return its answer; raises ``Overloaded`` when it cannot
        start in time.  ``disconnected`` returns once the client went away."""
        if not self.running:
            raise Overloaded("the service is shutting down", 1)
        now = self.loop.time()
        if len(self.pending) >= self.settings.queue_size:
            raise Overloaded(f"{len(self.pending)} requests are already waiting for a solver",
                             self.expected_start_s())
        wait = self.expected_start_s()
        if now + wait > deadline_at:
            raise Overloaded(f"the solvers are busy: this request would wait about "
                             f"{wait * 1000:.0f} ms, past its deadline", wait)
        job = _Job(next(self.ids), op, payload, deadline_at, budget_ms, self.loop.create_future(),
                   request_id)
        self.pending.append(job)
        job.timer = self.loop.call_at(deadline_at, self._expire, job)
        self._dispatch()
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

    def _expire(self, job: _Job) -> None:
        """A job's deadline came while it still waited for a slot."""
        if job in self.pending:
            self.pending.remove(job)
            self._finish(job, _unavailable("the request waited for a solver until its deadline",
                                           self.expected_start_s()))

    def _cancel(self, job: _Job) -> None:
        if job in self.pending:
            self.pending.remove(job)
            if job.timer is not None:
                job.timer.cancel()
            return
        for slot in self.slots:
            if slot.job is job:
                slot.cancel()
                self.loop.call_later(CANCEL_GRACE_S, self._overdue, slot, job)

    def _dispatch(self) -> None:
        for index, slot in enumerate(self.slots):
            if not self.pending:
                break
            if slot.job is not None or slot.broken:
                continue
            job = self.pending.popleft()
            if job.timer is not None:
                job.timer.cancel()
            job.started_at = self.loop.time()
            try:
                slot.send(job)
            except (OSError, BrokenPipeError, ValueError):
                self.pending.appendleft(job)
                self._replace(index, slot)
                continue
            job.timer = self.loop.call_at(job.deadline_at + LATE_S, self._late, slot, job)
        if self.on_change is not None:
            self.on_change(self)

    # -- answers ----------------------------------------------------------------
    def slot_done(self, slot: _Slot, job_id: int, outcome: Outcome) -> None:
        """A slot answered a job (called on the loop)."""
        job = slot.job
        if job is None or job.id != job_id:
            return  # an answer to a job already given up on
        slot.job = None
        if job.timer is not None:
            job.timer.cancel()
        self.service_s += _EWMA * ((self.loop.time() - job.started_at) - self.service_s)
        self._finish(job, outcome)
        if slot.broken and slot in self.slots:
            self._replace(self.slots.index(slot), slot)
        self._dispatch()

    def slot_failed(self, slot: _Slot, why: str) -> None:
        """A slot's process died (called on the loop)."""
        job, slot.job = slot.job, None
        if job is not None:
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
        logger.warning("solver process late on %s by %.0f ms; answering 503",
                       job.op, (self.loop.time() - job.deadline_at) * 1000)
        self._finish(job, _unavailable("the solver overran the request's deadline", 1))
        job.timer = self.loop.call_at(job.deadline_at + BACKSTOP_S, self._overdue, slot, job)

    def _overdue(self, slot: _Slot, job: _Job) -> None:
        """The backstop: a job still running well past its deadline (or its
        cancellation) is cut short with its process."""
        if slot.job is not job:
            return
        slot.job = None
        logger.error("solver process overran the deadline of %s by %.0f ms; replacing it",
                     job.op, (self.loop.time() - job.deadline_at) * 1000)
        slot.kill()
        self._finish(job, _unavailable("the solver overran the request's deadline", 1))
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
            if placeholder in self.slots:
                fresh.attach()
                self.slots[self.slots.index(placeholder)] = fresh
                self._dispatch()
            else:
                await asyncio.to_thread(fresh.close)

        self.loop.create_task(swap())

    def _finish(self, job: _Job, outcome: Outcome) -> None:
        if job.timer is not None:
            job.timer.cancel()
        if not job.future.done():
            job.future.set_result(outcome)


class _Starting:
    """A slot being (re)started: takes no job yet."""

    job: _Job | None = None
    broken = True

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


def _unavailable(detail: str, retry_after_s: float = 1) -> Outcome:
    """A 503 answer with ``Retry-After`` (the pool could not answer in time)."""
    from api.http_errors import error_bytes

    return Outcome(503, error_bytes("unavailable", detail),
                   {"retry_after": max(1, math.ceil(retry_after_s)), "deadline_hit": True})


def now() -> float:
    """The pool's clock (``time.monotonic``)."""
    return time.monotonic()
