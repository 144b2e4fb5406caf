"""Rate limits, counted across every worker and replica in Redis.

The counting is the ``limits`` library's sliding-window counter: in Redis
when ``RUMMY_SOLVER_REDIS_URL`` is set (every uvicorn worker and every
replica pointed at it shares one count per name), else in each worker's
memory (then a rate holds per worker).

A Redis that does not answer must not hold the requests it counts: every
call to it is bounded by ``RUMMY_SOLVER_REDIS_CONNECT_TIMEOUT_MS`` to connect
and ``RUMMY_SOLVER_REDIS_TIMEOUT_MS`` per command, with no retry (a retry
would double the wait of every request while Redis is away).  A check that
fails (refused, timed out, any error) gets the policy of
``RUMMY_SOLVER_RATE_LIMIT_FAIL``:

* ``open`` (the default): the request goes on, uncounted.  The limits protect
  the service; refusing every caller because the counter is down would do
  the opposite.  The bound on guessing keys (``allow``/``over`` with
  ``local``) is the exception: meanwhile each worker counts it in its own
  memory, so an outage of Redis never lifts it (it holds per worker then).
* ``closed``: the request is refused, 503 ``rate_limit_unavailable`` with
  ``Retry-After`` (``CounterUnavailable``), for a deployment where an
  uncounted request costs more than a refused one.

Each worker talks to Redis over at most ``RUMMY_SOLVER_REDIS_POOL_SIZE``
connections, opened at start (``warm``: the first that does not open ends
it, and the worker starts and serves as below; the rest open as checks need
them).  A check takes a free one, waiting behind the checks ahead of it: a
burst opens no connection of its own (30 checks at once on a loaded machine
each opened one, a connect overran its timeout, and the checks got the
policy while Redis answered), and that wait, the worker's own, is not
counted against the timeouts but bounded by ``SLOT_WAIT_S``; the checks
waiting when one finds Redis away get the policy at once.

After a failure Redis is left alone for ``RETRY_S``: meanwhile checks get the
policy at once instead of each waiting out the timeout (and opening one more
connection to a Redis that does not read them); then one check tries again.
While it is away ``rummy_solver_redis_up{use="rate_limits"}`` is 0,
``rummy_solver_rate_limit_failures_total`` counts the checks that got the
policy, a warning is logged when it goes away and once a minute after, and
a line when it is back; ``/readyz`` says so (``probe``).

A connection that fails (no answer, reset, closed) makes the pool's idle
ones suspect: they are closed, and the next checks open fresh ones.  A
restart of Redis closes its sockets, which the pool sees and reopens at
once; a failover or a proxy that drops them without closing them (reset on
the next write, or silence) did not show, and each such connection failed
a check in turn, each failure leaving Redis alone for ``RETRY_S``: with
checks at rising concurrency, 503s under ``closed`` for 3.5 s (reset) to
5.4 s (silence) while the new Redis answered, instead of the first
failure's second.  A Redis that answers with an error (out of memory,
read-only) has live connections: they are kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Literal, TypeVar

from limits import RateLimitItem
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.util import WindowStats

from api.server import metrics

if TYPE_CHECKING:
    from redis.asyncio import BlockingConnectionPool
    from redis.asyncio.connection import AbstractConnection

logger = logging.getLogger("api.rate_limit")

Policy = Literal["open", "closed"]

RETRY_S = 1.0
"""How long a Redis that failed a check is left alone before the next try."""

SLOT_WAIT_S = 1.0
"""The longest a check waits for a free connection behind this worker's other
checks: past it the check gets the policy, as when Redis fails, without
Redis being taken for away (it answers; this worker asks more than its
connections carry, e.g. a Redis answering each command in tens of ms under
a burst of thousands).  A healthy Redis answers in well under a
millisecond: a second is thousands of checks queued."""

_WARN_EVERY_S = 60.0

_PROBE_NAME = "probe"
"""What ``probe`` counts under (no key's id: those are hex digits)."""

T = TypeVar("T")


class CounterUnavailable(Exception):
    """Redis did not answer and the policy is ``closed``: refuse the request,
    retry in ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the rate limit counter does not answer; retry in {retry_after} s")
        self.retry_after = retry_after


class RateLimiter:
    """``allow(name, rate)``: whether a request counted under ``name`` may go
    on now (counted in the same step); ``over(name, rate)``: look at a count
    without adding to it (see the module docstring)."""

    def __init__(self, redis_url: str = "", connect_timeout_ms: int = 50,
                 timeout_ms: int = 50, fail: Policy = "open", pool_size: int = 8) -> None:
        # A bound on each call whatever the client library does inside it
        # (a connection and one command).
        self.call_timeout_s = (connect_timeout_ms + timeout_ms) / 1000.0
        storage: Storage
        self.pool: BlockingConnectionPool | None = None
        if redis_url:
            from redis.asyncio import BlockingConnectionPool
            from redis.asyncio.retry import Retry
            from redis.backoff import NoBackoff

            # At most pool_size connections, opened by warm(): a burst of checks
            # waits for one of them (self.slots) instead of each connecting (a
            # connect on a loaded machine overran the connect timeout, and the
            # checks got the policy while Redis answered).  The pool's own wait,
            # within a call's bound, is for a call that did not take a slot.
            self.pool = BlockingConnectionPool.from_url(
                # redis-py names a socket unix:// (the settings allow redis://,
                # rediss:// and redis+unix:// only)
                redis_url.replace("redis+unix://", "unix://", 1),
                max_connections=pool_size, timeout=self.call_timeout_s,
                socket_connect_timeout=connect_timeout_ms / 1000.0,
                socket_timeout=timeout_ms / 1000.0, retry=Retry(NoBackoff(), 0))
            # limits' asyncio storages are named async+redis://, async+rediss:// ...
            # (the URL only picks the storage here: the pool is what connects)
            storage = RedisStorage(f"async+{redis_url}", implementation="redispy",
                                   key_prefix="rummy-solver", wrap_exceptions=True,
                                   connection_pool=self.pool)  # type: ignore[arg-type]
        else:
            storage = MemoryStorage()
        self.storage = storage
        self.shared = bool(redis_url)
        self.limiter = SlidingWindowCounterRateLimiter(storage)
        self.local_storage = MemoryStorage()
        self.local = SlidingWindowCounterRateLimiter(self.local_storage)
        """This worker's own counts, for the checks that must not go uncounted
        while Redis is away (``local=True``), and its own marks."""
        self.fail = fail
        self.pool_size = pool_size
        self.slots = asyncio.Semaphore(pool_size)
        """One per connection of the pool: a check takes one before its call,
        so that its wait behind the checks ahead is not counted against
        Redis's timeouts (the wait is this worker's own: on a loaded machine
        a burst's queue outlasted them while Redis answered each at once)."""
        self.closing: asyncio.Task[None] | None = None
        """The closing of the pool's idle connections after a connection failed."""
        self.down_since: float | None = None
        self.retry_at = -math.inf
        self.warned_at = -math.inf
        self.failures_since_warned = 0

    async def warm(self) -> int:
        """Open the pool's connections to Redis, one after another, before the
        worker serves: how many are open.  Never fails: at the first that does
        not open within the timeouts (Redis away, or a slow connect) it stops,
        with a line in the log, and the others open as checks need them; the
        checks then find Redis as the module docstring says."""
        if self.pool is None:
            return 0
        held: list[AbstractConnection] = []
        try:
            while len(held) < self.pool.max_connections:
                async with asyncio.timeout(self.call_timeout_s):
                    held.append(await self.pool.get_connection())  # type: ignore[no-untyped-call]
        except Exception as error:
            logger.info("%d of %d connections to the rate limit counter (Redis) open at start "
                        "(the next failed: %s); the others open as checks need them",
                        len(held), self.pool.max_connections, _reason(error))
        finally:
            for connection in held:
                await self.pool.release(connection)
        return len(held)

    async def close(self) -> None:
        """Close the connections to Redis (at the worker's end)."""
        if self.closing is not None:
            await self.closing
        if self.pool is not None:
            await self.pool.aclose()

    async def allow(self, name: str, rate: RateLimitItem, local: bool = False) -> int | None:
        """Count one request under ``name``, in one step with the look at its
        count (a request over the rate is not counted): None when it may go
        on, else the seconds to wait (Retry-After); ``CounterUnavailable``
        under ``closed``; ``local`` as for ``over``."""

        def count(limiter: SlidingWindowCounterRateLimiter) -> Callable[[], Awaitable[int | None]]:
            async def call() -> int | None:
                if await limiter.hit(rate, name):
                    return None
                return _wait(await limiter.get_window_stats(rate, name))
            return call

        return await self._guarded(count(self.limiter), count(self.local) if local else None)

    async def over(self, name: str, rate: RateLimitItem, local: bool = False) -> int | None:
        """The seconds to wait when ``name``'s count is at its rate, else None
        (counts nothing).  ``local``: while Redis is away, this worker's own
        count of ``name`` answers instead of the policy's "nothing counted"."""

        def look(limiter: SlidingWindowCounterRateLimiter) -> Callable[[], Awaitable[int | None]]:
            async def call() -> int | None:
                stats = await limiter.get_window_stats(rate, name)
                return _wait(stats) if stats.remaining <= 0 else None
            return call

        return await self._guarded(look(self.limiter), look(self.local) if local else None,
                                   counts=False)

    async def mark(self, name: str, seconds: int) -> None:
        """Set the mark ``name`` for ``seconds`` (a later mark of the same name
        keeps the first one's end), in Redis and in this worker's memory
        (never ``CounterUnavailable``)."""
        if self.shared:
            await self.local_storage.incr(name, seconds)

        async def put() -> None:
            await self.storage.incr(name, seconds)

        with contextlib.suppress(CounterUnavailable):  # kept in this worker's memory:
            await self._guarded(put)  # a request admitted is not refused for a mark

    async def marked(self, names: Sequence[str]) -> bool:
        """Whether any of the marks ``names`` is set: in Redis, or in this
        worker's memory while Redis is away (never ``CounterUnavailable``:
        a mark only ever lets a request pass)."""

        def look(storage: Storage) -> Callable[[], Awaitable[bool]]:
            async def call() -> bool:
                return any([await storage.get(name) > 0 for name in names])
            return call

        try:
            found = await self._guarded(look(self.storage), look(self.local_storage),
                                        counts=False)
        except CounterUnavailable:
            found = await look(self.local_storage)()
        return bool(found)

    async def probe(self) -> bool:
        """Whether the counter counts now (a count of its own within the
        timeouts, even while it is left alone): for ``/readyz``, which also
        keeps the gauge current when no keyed request comes.  A count, not a
        PING: a Redis out of memory (``maxmemory``) or read-only answers PING
        and refuses every count.  An INCR, whose write comes first: Redis
        lets a script write on out of memory once it has written (a sliding
        window's shift), so a rate check would pass now and then."""
        if not self.shared:
            return True
        if not await self._slot():
            return False  # this worker's checks hold every connection past SLOT_WAIT_S
        try:
            async with asyncio.timeout(self.call_timeout_s):
                await self.storage.incr(_PROBE_NAME, 1)
        except Exception as error:
            self._failed(_reason(error))
            self._suspect(error)
            return False
        finally:
            self.slots.release()
        self._answered()
        return True

    async def _slot(self) -> bool:
        """Take a connection's slot, waiting behind this worker's other checks
        for at most ``SLOT_WAIT_S``: False when none came free in that time."""
        try:
            async with asyncio.timeout(SLOT_WAIT_S):
                await self.slots.acquire()
        except TimeoutError:
            return False
        return True

    async def _guarded(self, call: Callable[[], Awaitable[T | None]],
                       fallback: Callable[[], Awaitable[T | None]] | None = None,
                       counts: bool = True) -> T | None:
        """``call()`` within the timeouts; when the counter fails,
        ``CounterUnavailable`` (closed), else ``fallback()`` (this worker's
        own count), else None (open: as if nothing were counted yet).  Only a
        call that ``counts`` (writes) tells that the counter is back: a Redis
        out of memory or read-only answers looks and refuses counts; a look
        that passes lets the next call try at once."""
        if not self.shared:
            return await call()
        if self._left_alone(time.monotonic()):
            return None if fallback is None else await fallback()
        # behind the checks ahead: this worker's own wait, not Redis's timeouts
        if not await self._slot():
            self._crowded()
            return None if fallback is None else await fallback()
        try:
            now = time.monotonic()
            if self._left_alone(now):  # a check ahead found Redis away
                return None if fallback is None else await fallback()
            if self.down_since is not None:
                self.retry_at = now + RETRY_S  # this check tries; the others meanwhile do not
            try:
                async with asyncio.timeout(self.call_timeout_s):
                    result = await call()
            except Exception as error:  # refused, timed out, a Redis error: the counter failed
                self._failed(_reason(error))
                self._suspect(error)
                self._policy(time.monotonic())
                return None if fallback is None else await fallback()
        finally:
            self.slots.release()
        if counts:
            self._answered()
        elif self.down_since is not None:
            self.retry_at = now  # the next call tries (and holds the others off meanwhile)
        return result

    def _left_alone(self, now: float) -> bool:
        """Whether Redis is left alone now (it failed a check less than
        ``RETRY_S`` ago); if so the check gets the policy here (counted, and
        under ``closed`` refused: ``CounterUnavailable``)."""
        if self.down_since is not None and now < self.retry_at:
            self._policy(now)
            return True
        return False

    def _policy(self, now: float) -> None:
        """Count a check the counter failed; under ``closed``, refuse its request."""
        metrics.RATE_LIMIT_FAILURES.labels(self.fail).inc()
        self.failures_since_warned += 1
        if self.fail == "closed":
            left = self.retry_at - now  # -inf while Redis is not left alone
            raise CounterUnavailable(max(1, math.ceil(left)) if math.isfinite(left) else 1)

    def _crowded(self) -> None:
        """A check that found no connection free within ``SLOT_WAIT_S``: the
        policy, and a warning (once a minute at most); Redis is not taken for
        away, since it answers the checks ahead."""
        now = time.monotonic()
        if now - self.warned_at >= _WARN_EVERY_S:
            logger.warning("rate limit checks waited over %.1f s for one of the %d connections "
                           "to Redis (RUMMY_SOLVER_REDIS_POOL_SIZE); this check gets "
                           "RUMMY_SOLVER_RATE_LIMIT_FAIL=%s", SLOT_WAIT_S, self.pool_size,
                           self.fail)
            self.warned_at = now
        self._policy(now)

    def _failed(self, reason: str) -> None:
        now = time.monotonic()
        self.retry_at = now + RETRY_S
        self._report(0)
        action = ("requests go on uncounted" if self.fail == "open"
                  else "keyed requests are refused with 503")
        if self.down_since is None:
            self.down_since = now
            self.warned_at = now
            logger.warning("the rate limit counter (Redis) failed a check (%s); %s until it "
                           "answers (RUMMY_SOLVER_RATE_LIMIT_FAIL=%s)", reason, action, self.fail)
        elif now - self.warned_at >= _WARN_EVERY_S:
            logger.warning("the rate limit counter (Redis) still fails after %.0f s (%s); %s: "
                           "%d checks since the last warning", now - self.down_since, reason,
                           action, self.failures_since_warned)
            self.warned_at = now
            self.failures_since_warned = 0

    def _suspect(self, error: Exception) -> None:
        """After a call that failed without Redis answering, close the pool's
        idle connections, which may be as dead without showing it (see the
        module docstring), in the background: the failed check has waited its
        bound already, and closing a TLS connection waits for the peer.  Those
        in use are closed by the client when they fail."""
        if self.pool is None or self.closing is not None or _answered_with_error(error):
            return
        pool = self.pool

        async def close() -> None:
            try:
                await pool.disconnect(inuse_connections=False)
            except Exception as error:  # each closes within the connect timeout
                logger.debug("closing the idle connections to Redis: %s", _reason(error))
            finally:
                self.closing = None

        self.closing = asyncio.get_running_loop().create_task(close())

    def _answered(self) -> None:
        if self.down_since is not None:
            logger.info("the rate limit counter (Redis) answers again after %.1f s (%d checks "
                        "got RUMMY_SOLVER_RATE_LIMIT_FAIL=%s since the last warning)",
                        time.monotonic() - self.down_since, self.failures_since_warned, self.fail)
            self.down_since = None
            self.failures_since_warned = 0
        self._report(1)

    def _report(self, up: int) -> None:
        """Set the gauge at every call that reached Redis or failed to: across workers it
        reads the latest of them (``livemostrecent``), so a worker that saw Redis fail and
        has had no call since does not hold it at 0 after another has counted."""
        metrics.REDIS_UP.labels("rate_limits").set(up)


def _reason(error: Exception) -> str:
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _answered_with_error(error: Exception) -> bool:
    """Whether Redis answered the failed call with an error of its own (out of
    memory, read-only ...): then its connection works.  ``limits`` wraps the
    client's errors in ``StorageError``."""
    from redis.exceptions import ResponseError

    return isinstance(getattr(error, "storage_error", error), ResponseError)


def _wait(stats: WindowStats) -> int:
    """Retry-After from a window's stats: whole seconds, at least 1."""
    return max(1, math.ceil(stats.reset_time - time.time()))
