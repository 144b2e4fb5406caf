"""Jobs waiting for a solver, one line per client, served max-min fair.

A *client* is who a job is for: the API key's id when keys are in use, else
the connection (``api.server.dispatch``).  Each client has its own FIFO line; when a
solver frees, the client with the fewest jobs running goes next (among equals,
the one whose head job waited longest), so a client sending many requests, or
a stream of heavy lines, is served in turn with everyone else rather than in
front; among clients running as many, the one served longest ago goes first
(round robin), then the one whose head job waited longest.  The last free
solver of a pool is *reserved*: only a client running nothing may take it,
so however many solvers long jobs hold, a newcomer finds one.  A full
queue takes the same side: a job that would start before the one to start
last takes that one's place (``displaced``), so a client filling the queue
with its own jobs never locks the others out of it.

>>> queue = FairQueue[str](reserve=1)
>>> queue.push("a", "a1"); queue.push("a", "a2"); queue.push("b", "b1")
>>> queue.pop(free=2), queue.pop(free=1)   # a runs one now: the last slot goes to b
('a1', 'b1')
>>> queue.pop(free=1) is None, len(queue)  # a already runs a job
(True, 1)
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Iterator
from typing import Generic, TypeVar

J = TypeVar("J")

_MAX_SERVED = 10_000
"""Clients whose last turn is remembered (the least recent are forgotten)."""


class FairQueue(Generic[J]):
    """Per-client FIFO lines, served max-min fair (see the module docstring)."""

    def __init__(self, reserve: int = 1) -> None:
        self.reserve = reserve
        self.lines: dict[str, deque[tuple[int, J]]] = {}
        self.running: dict[str, int] = {}
        self.client_of: dict[int, tuple[str, float]] = {}  # id(job) -> (client, work), waiting
        self.work: dict[str, float] = {}  # per client: the work of its waiting jobs
        self.served: dict[str, int] = {}  # per client: when it was last served (pop count)
        self.pops = 0
        self.order = itertools.count()
        self.size = 0

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[J]:
        for line in self.lines.values():
            for _, job in line:
                yield job

    def push(self, client: str, job: J, work: float = 0.0) -> None:
        """Queue ``job`` (expected to take ``work`` seconds) at the end of its client's line."""
        self.lines.setdefault(client, deque()).append((next(self.order), job))
        self.client_of[id(job)] = (client, work)
        self.work[client] = self.work.get(client, 0.0) + work
        self.size += 1

    def work_ahead(self, client: str) -> float:
        """Seconds of waiting work that would start before a new job of
        ``client``: the lines of clients running no more jobs than it does."""
        running = self.running.get(client, 0)
        return sum(work for other, work in self.work.items()
                   if self.running.get(other, 0) <= running)

    def ordered(self) -> list[tuple[str, J]]:
        """Every waiting job with its client, in the order they are expected to
        start if nothing else arrives or finishes: the ``k``-th job of a
        client running ``r`` goes at level ``r + k``, lower levels first, and
        within a level as ``pop`` takes them: the least recently served client
        first (one served at a lower level of this order counts as served
        last), then the oldest job.

        >>> queue = FairQueue[str]()
        >>> for client, job in (("a", "a1"), ("a", "a2"), ("b", "b1"), ("a", "a3")):
        ...     queue.push(client, job)
        >>> queue.started("b")
        >>> [job for _, job in queue.ordered()]
        ['a1', 'b1', 'a2', 'a3']
        """
        keyed: list[tuple[tuple[int, bool, int, int], str, J]] = []
        for client, line in self.lines.items():
            keyed.extend((self._place(client, k, order), client, job)
                         for k, (order, job) in enumerate(line))
        keyed.sort(key=lambda entry: entry[0])
        return [(client, job) for _, client, job in keyed]

    def _place(self, client: str, k: int, order: int) -> tuple[int, bool, int, int]:
        """Where the ``k``-th waiting job of ``client`` (queued ``order``-th) stands
        in ``ordered``: its level, then whether it is not its line's head, when
        its client was served (its head only), its age."""
        served = self.served.get(client, -1) if k == 0 else 0
        return (self.running.get(client, 0) + k, k > 0, served, order)

    def displaced(self, client: str) -> J | None:
        """When the queue is full: the waiting job a new job of ``client`` takes
        the place of, or None when the new job is the one to refuse.  That is
        the job ``ordered`` puts last (the newest of a client running and
        waiting the most), when the new job's level (what ``client`` runs and
        has waiting) is lower; at the same level the waiting job keeps its place.

        >>> queue = FairQueue[str]()
        >>> for job in ("a1", "a2", "a3"):
        ...     queue.push("a", job)
        >>> queue.displaced("b"), queue.displaced("a")
        ('a3', None)
        """
        last = max(((self._place(other, len(line) - 1, line[-1][0]), line[-1][1])
                    for other, line in self.lines.items()),
                   key=lambda entry: entry[0], default=None)
        level = self.running.get(client, 0) + len(self.lines.get(client, ()))
        return last[1] if last is not None and level < last[0][0] else None

    def _taken(self, job: J) -> str | None:
        entry = self.client_of.pop(id(job), None)
        if entry is None:
            return None
        client, work = entry
        left = self.work[client] - work
        if client in self.lines and len(self.lines[client]) > 1:
            self.work[client] = left
        else:
            del self.work[client]
        self.size -= 1
        return client

    def remove(self, job: J) -> bool:
        """Take a waiting job out of its line; False when it was not waiting."""
        client = self._taken(job)
        if client is None:
            return False
        line = self.lines[client]
        for index, (_, waiting) in enumerate(line):
            if waiting is job:
                del line[index]
                break
        if not line:
            del self.lines[client]
        return True

    def pop(self, free: int) -> J | None:
        """The next job to start on one of ``free`` solvers, or None: the waiting
        client running fewest jobs, oldest first; on a reserved solver, only a
        client running nothing."""
        best: str | None = None
        best_key: tuple[int, int, int] | None = None
        reserved = free <= self.reserve
        for client, line in self.lines.items():
            running = self.running.get(client, 0)
            if reserved and running:
                continue
            key = (running, self.served.get(client, -1), line[0][0])
            if best_key is None or key < best_key:
                best, best_key = client, key
        if best is None:
            return None
        line = self.lines[best]
        job = line[0][1]
        self._taken(job)
        line.popleft()
        if not line:
            del self.lines[best]
        self.running[best] = self.running.get(best, 0) + 1
        self.pops += 1
        self.served.pop(best, None)  # re-inserted last: the dict stays in serving order
        self.served[best] = self.pops
        if len(self.served) > _MAX_SERVED:
            del self.served[next(iter(self.served))]
        return job

    def clear(self) -> list[J]:
        """Every waiting job, the lines emptied."""
        jobs = list(self)
        self.lines.clear()
        self.client_of.clear()
        self.work.clear()
        self.size = 0
        return jobs

    def started(self, client: str) -> None:
        """A job of ``client`` started without waiting in line."""
        self.running[client] = self.running.get(client, 0) + 1

    def finished(self, client: str) -> None:
        """A job of ``client`` left its solver."""
        left = self.running.get(client, 0) - 1
        if left > 0:
            self.running[client] = left
        else:
            self.running.pop(client, None)
