"""Keep-alive connections that end after a while, so load rebalances.

The uvicorn workers share one listening socket: a connection stays with the
worker that accepted it for as long as the client keeps it open.  When a
worker dies and is replaced, clients that reconnected to the survivor stay
there and the newcomer sits idle.  ``ConnectionAges`` marks the first answer
on a connection older than ``max_s`` with ``Connection: close``; the client
reconnects and the kernel hands the new connection to whichever worker
accepts first (the least busy, usually).

>>> ages = ConnectionAges(max_s=5)
>>> ages.expired(("10.0.0.1", 4000), now=100.0), ages.expired(("10.0.0.1", 4000), now=106.0)
(False, True)
"""

from __future__ import annotations

from collections.abc import Hashable

_PRUNE_EVERY = 4096
"""Answers between sweeps of connections not seen for a while (closed ones)."""


class ConnectionAges:
    """When each open connection of this worker was first seen."""

    def __init__(self, max_s: float) -> None:
        self.max_s = max_s
        self.first_seen: dict[Hashable, float] = {}
        self.last_seen: dict[Hashable, float] = {}
        self.answers = 0

    def expired(self, connection: Hashable, now: float) -> bool:
        """Whether this answer should close ``connection`` (and forget it)."""
        if not self.max_s or connection is None:
            return False
        self.answers += 1
        if self.answers % _PRUNE_EVERY == 0:
            self._prune(now)
        first = self.first_seen.setdefault(connection, now)
        if now - first >= self.max_s:
            del self.first_seen[connection]
            self.last_seen.pop(connection, None)
            return True
        self.last_seen[connection] = now
        return False

    def _prune(self, now: float) -> None:
        for connection, seen in list(self.last_seen.items()):
            if now - seen > self.max_s:
                del self.last_seen[connection]
                self.first_seen.pop(connection, None)
