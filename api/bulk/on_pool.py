"""``api.bulk`` on the service's solver pool: the lines of a game log answered by
solver processes (``api.pool.solver_pool``), in input order.

The pool is the one the HTTP service runs its requests on, driven here from
an event loop on a thread of its own: each chunk of lines is one
``bulk_chunk`` *batch* job (``SolverPool.submit``: queued until a process is
free, never refused for its wait, its time limit counted from its start),
answered by ``api.bulk.worker`` as ``api.shared.lines`` answers a line.  What
happens to a chunk is told apart:

* answered: its answers;
* refused by the pool (``Overloaded``: a full queue, a pool that stops): the
  same chunk is submitted again, up to ``MAX_REFUSALS`` times;
* its process died or overran the chunk's limit (the pool kills and replaces
  it): the chunk is rerun a line at a time (``pipeline.in_order``), so only a
  line that kills a process on its own is answered ``worker_crashed``.

A process recycled (``recycle_tasks``, ``recycle_rss_mb``) leaves after
answering its chunk, so recycling costs a process start, never a chunk.

The processes run at the caller's priority and, when the caller has no
other thread (the command line; Linux), start by ``fork``
(``SolverPool.fork_processes``): at once, with the caller's imports, where
the forkserver first imports the solver in a fresh interpreter.  Their
replacements come from the forkserver.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
import time
from collections.abc import Generator, Iterable, Sequence
from typing import Any, NamedTuple

from api.bulk.pipeline import (
    CHUNK_LINES,
    IN_FLIGHT_PER_PROCESS,
    ChunkRunner,
    WorkersFailed,
    chunks,
    in_order,
)
from api.pool.resources import available_cpus
from api.pool.solver_pool import Outcome, Overloaded, SolverPool
from api.shared.lines import Answered, Line, answer_chunk, check_op, unpack
from api.shared.operations import DEFAULT_SETTINGS
from api.shared.settings import Settings

logger = logging.getLogger("api.bulk")

_SLACK_S = 5.0
MAX_REFUSALS = 5
"""Times one chunk may be refused by the pool before the run stops (``WorkersFailed``)."""
REFUSED_PAUSE_S = 0.1
"""Pause before a refused chunk is submitted again (times the refusals so far)."""
RUNNER = "api.bulk.worker:run_chunk"
"""The job runner of bulk's solver processes."""


def default_processes() -> int:
    """One worker process per CPU this process may use (its container's quota included)."""
    return available_cpus()


class _Ticket(NamedTuple):
    """A submitted chunk: its lines (to submit again when refused) and its answer to be."""

    first: int
    lines: list[Line]
    outcome: concurrent.futures.Future[Outcome]


class PoolRunner(ChunkRunner):
    """Chunks of lines as batch jobs of a ``SolverPool`` of ``processes`` solver processes."""

    def __init__(self, processes: int, op: str, settings: Settings,
                 runner_path: str = RUNNER) -> None:
        window = processes * IN_FLIGHT_PER_PROCESS
        self.settings = settings.model_copy(update={
            "processes": processes, "queue_size": max(settings.queue_size, window)})
        self.op = op
        self.window = window
        self.line_limit_s = max(settings.max_time_limit_ms, settings.request_budget_ms) / 1000.0
        self.pool = SolverPool(self.settings, runner_path, fair=False, niceness=0)
        # Before the loop's thread exists: a caller with no thread of its own
        # gets its processes by fork, started at once with its imports.
        self.pool.fork_processes()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True,
                                       name="rummy-solver-bulk-loop")
        self.thread.start()
        self.stopping = self._on_loop(self._event()).result()
        self._on_loop(self.pool.start()).result()

    def _on_loop(self, coroutine: Any) -> concurrent.futures.Future[Any]:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    @staticmethod
    async def _event() -> asyncio.Event:
        return asyncio.Event()

    def start(self, first: int, lines: Sequence[Line]) -> _Ticket:
        """Submit a chunk; its ticket."""
        return self._submit(first, list(lines))

    def _submit(self, first: int, lines: list[Line]) -> _Ticket:
        # Every line may use its whole limit: the chunk's, from its start, is
        # only the backstop against a process that stopped answering.
        limit_s = len(lines) * self.line_limit_s + _SLACK_S
        payload = {"lines": lines, "first": first, "op": self.op}
        return _Ticket(first, lines, self._on_loop(self.pool.submit(
            "bulk_chunk", payload, time.monotonic() + limit_s, limit_s * 1000.0,
            self.stopping.wait, "bulk", batch=True)))

    def finish(self, ticket: _Ticket) -> list[Answered] | None:
        """The chunk's answers; None when its solver process died or overran.
        A chunk the pool refused is submitted again as it is: nothing crashed."""
        refusals = 0
        while True:
            try:
                outcome = ticket.outcome.result()
            except Overloaded as exc:
                refusals += 1
                if refusals >= MAX_REFUSALS:
                    raise WorkersFailed(f"the solver pool refused lines {ticket.first}-"
                                        f"{ticket.first + len(ticket.lines) - 1} "
                                        f"{refusals} times: {exc.reason}") from None
                logger.warning("the solver pool refused %d lines (%s); submitting them again",
                               len(ticket.lines), exc.reason)
                time.sleep(REFUSED_PAUSE_S * refusals)
                ticket = self._submit(ticket.first, ticket.lines)
                continue
            return unpack(outcome.body) if outcome.status == 200 else None

    def close(self) -> None:
        """Stop the solver processes and the loop."""
        self.loop.call_soon_threadsafe(self.stopping.set)
        self._on_loop(self.pool.stop()).result(timeout=30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
        self.loop.close()


def run_lines(lines: Iterable[Line], op: str = "solve_hand", processes: int | None = None, *,
              settings: Settings = DEFAULT_SETTINGS,
              chunk_lines: int = CHUNK_LINES) -> Generator[Answered, None, None]:
    """Answer every line, in input order, one ``Answered`` per line.

    ``op`` is the operation of lines that name none.  ``processes`` solver
    processes (default: one per CPU; ``1``: in this process) answer chunks of
    ``chunk_lines`` lines; lines are read only as workers need them, so any
    input size runs in flat memory.  Closing the iterator early stops the
    workers.

    >>> [a.ok for a in run_lines(['{"variant": "gin", "hand": "AS"}', "[]"], processes=1)]
    [True, False]
    """
    name = check_op(op)
    workers = default_processes() if processes is None else processes
    if workers < 1:
        raise ValueError(f"processes must be at least 1; got {workers}")
    if chunk_lines < 1:
        raise ValueError(f"chunk_lines must be at least 1; got {chunk_lines}")
    return _run(lines, name, workers, settings, chunk_lines)


def _run(lines: Iterable[Line], op: str, workers: int, settings: Settings,
         chunk_lines: int) -> Generator[Answered, None, None]:
    if workers == 1:
        for first, chunk in chunks(lines, chunk_lines):
            yield from answer_chunk(chunk, first, op, settings)
        return
    runner = PoolRunner(workers, op, settings)
    try:
        yield from in_order(chunks(lines, chunk_lines), runner, runner.window)
    finally:
        runner.close()
