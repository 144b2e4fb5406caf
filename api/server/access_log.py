"""The access log, bounded: at most so many lines a second, the rest summed up.

At thousands of requests a second one JSON line per request is tens of
megabytes a minute.  ``AccessLog`` writes a request's line while its token
bucket (``per_s`` lines a second, bursts of ``2 * per_s``) has a token;
every request it leaves out is counted by route and status, and the counts
go out as one ``access log summary`` line at most every ``SUMMARY_S``
seconds.  Quiet traffic, and every request of a test, is still logged line by
line.

>>> log = AccessLog(per_s=1)
>>> [log.admit(now=0.0) for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

SUMMARY_S = 10.0
"""Seconds between summary lines (when requests were left out)."""

access_logger = logging.getLogger("api.access")


class AccessLog:
    """One worker's access log (see the module docstring); ``per_s == 0``: every line."""

    def __init__(self, per_s: int) -> None:
        self.per_s = per_s
        self.tokens = 2.0 * per_s
        self.refilled = 0.0
        self.skipped: Counter[tuple[str, int]] = Counter()
        self.summarised = 0.0

    def admit(self, now: float) -> bool:
        """Whether a request finishing ``now`` gets its own line."""
        if not self.per_s:
            return True
        self.tokens = min(2.0 * self.per_s, self.tokens + (now - self.refilled) * self.per_s)
        self.refilled = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def write(self, now: float, method: str, path: str, route: str, status: int,
              fields: dict[str, Any]) -> None:
        """Log one finished request, or count it for the next summary."""
        if self.admit(now):
            access_logger.info("%s %s %s", method, path, status,
                               extra={"route": route, "method": method, "status": status, **fields})
        else:
            self.skipped[(route, status)] += 1
        if self.skipped and now - self.summarised >= SUMMARY_S:
            self._summary(now)

    def _summary(self, now: float) -> None:
        counts = [{"route": route, "status": status, "requests": count}
                  for (route, status), count in sorted(self.skipped.items())]
        access_logger.info(
            "access log summary: %d requests not logged one by one in the last %.0f s",
            sum(self.skipped.values()), now - self.summarised if self.summarised else SUMMARY_S,
            extra={"skipped": counts})
        self.skipped.clear()
        self.summarised = now
