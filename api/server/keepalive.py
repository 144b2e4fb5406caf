"""Keep-alive connections that end after a while, so load rebalances.

The uvicorn workers share one listening socket: a connection stays with the
worker that accepted it for as long as the client keeps it open.  When a
worker dies and is replaced, clients that reconnected to the survivor stay
there and the newcomer sits idle.  ``ConnectionAges`` marks the first answer
on a connection older than ``max_s`` with ``Connection: close``; the client
reconnects and the kernel hands the new connection to whichever worker
accepts first (the least busy, usually).

Connections opened together (a client's pool, a fleet after a restart) would
all reach ``max_s`` together and reconnect in one storm that stalls every
answer for a few milliseconds; so each connection gets its own lifetime,
spread over ``[max_s / 2, max_s]`` by the order it was first seen (golden-ratio
steps: any run of consecutive connections covers the range evenly).

>>> ages = ConnectionAges(max_s=5)
>>> ages.expired(("10.0.0.1", 4000), now=100.0), ages.expired(("10.0.0.1", 4000), now=105.0)
(False, True)
>>> [round(ages.lifetime(n), 2) for n in range(5)]
[5.0, 3.45, 4.41, 2.86, 3.82]
"""

from __future__ import annotations

from collections.abc import Hashable

_PRUNE_EVERY = 4096
"""Answers between sweeps of connections not seen for a while (closed ones)."""
_GOLDEN = 0.6180339887498949
"""The fractional step between successive connections' lifetimes."""


class ConnectionAges:
    """When each open connection of this worker is to be closed."""

    def __init__(self, max_s: float) -> None:
        self.max_s = max_s
        self.ends: dict[Hashable, float] = {}
        """When each connection's lifetime ends (its first answer + its lifetime)."""
        self.last_seen: dict[Hashable, float] = {}
        self.answers = 0
        self.opened = 0

    def lifetime(self, n: int) -> float:
        """Seconds the ``n``-th connection seen may live: in ``[max_s / 2, max_s]``."""
        return self.max_s * (1.0 - 0.5 * ((n * _GOLDEN) % 1.0))

    def expired(self, connection: Hashable, now: float) -> bool:
        """Whether this answer should close ``connection`` (and forget it)."""
        if not self.max_s or connection is None:
            return False
        self.answers += 1
        if self.answers % _PRUNE_EVERY == 0:
            self._prune(now)
        ends = self.ends.get(connection)
        if ends is None:
            ends = self.ends[connection] = now + self.lifetime(self.opened)
            self.opened += 1
        if now >= ends:
            del self.ends[connection]
            self.last_seen.pop(connection, None)
            return True
        self.last_seen[connection] = now
        return False

    def _prune(self, now: float) -> None:
        for connection, seen in list(self.last_seen.items()):
            if now - seen > self.max_s:
                del self.last_seen[connection]
                self.ends.pop(connection, None)
