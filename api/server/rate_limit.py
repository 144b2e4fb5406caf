"""Per-key rate limits, counted across every worker and replica in Redis.

The counting is the ``limits`` library's sliding-window counter: in Redis
when ``RUMMY_SOLVER_REDIS_URL`` is set (every uvicorn worker and every
replica pointed at it shares one count per key), else in each worker's
memory (then a key's rate holds per worker).  A Redis that cannot be reached
lets requests through (logged, at most once a minute): the limits protect the
service, and refusing every caller because the counter is down would do the
opposite.
"""

from __future__ import annotations

import logging
import math
import time

from limits import RateLimitItem
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

logger = logging.getLogger("api.rate_limit")

_WARN_EVERY_S = 60.0


class RateLimiter:
    """``allow(key_id, rate)``: whether a request of that key may go on now."""

    def __init__(self, redis_url: str = "") -> None:
        storage: Storage
        if redis_url:
            # limits' asyncio storages are named async+redis://, async+rediss:// ...
            url = redis_url if redis_url.startswith("async+") else f"async+{redis_url}"
            storage = RedisStorage(url, implementation="redispy", key_prefix="rummy-solver",
                                   wrap_exceptions=True)
        else:
            storage = MemoryStorage()
        self.shared = bool(redis_url)
        self.limiter = SlidingWindowCounterRateLimiter(storage)
        self.warned_at = -math.inf

    async def allow(self, key_id: str, rate: RateLimitItem) -> int | None:
        """None when the request may go on, else the seconds to wait (Retry-After)."""
        try:
            if await self.limiter.hit(rate, key_id):
                return None
            stats = await self.limiter.get_window_stats(rate, key_id)
        except Exception as error:  # the counter is down: let the request through
            now = time.monotonic()
            if now - self.warned_at >= _WARN_EVERY_S:
                self.warned_at = now
                logger.warning("rate limit storage unavailable; requests are not limited "
                               "(%s: %s)", type(error).__name__, error)
            return None
        return max(1, math.ceil(stats.reset_time - time.time()))
