"""One deadline per request, honoured by every loop that can grow.

A ``Deadline`` is a wall-clock instant (``time.monotonic``, the same clock in
every process of the machine, so a deadline crosses a process boundary) plus
an optional *cancel* check (a client that went away).  Loops call
``deadline.check()`` every so often; it raises ``DeadlineExceeded`` once the
instant has passed or the work was cancelled.  Searches also take a
deterministic work budget (``Work``, shared by every search of the request):
on a quiet machine the budget runs out before the clock, so the same request
gives the same answer.

A call's deadline comes from its arguments here too: ``check_time_limit``
(a ``time_limit_ms`` argument, ``InvalidOptionError`` when bad),
``resolve_deadline`` (a limit and/or a caller's ``Deadline``) and
``play_deadline`` (the request budget of a call that runs many solves: hints,
gin and round scoring).

>>> Deadline.after_ms(50).expired(), Deadline.never().remaining_ms() > 10**9
(False, True)
"""

from __future__ import annotations

import gc
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from solver.config import CONFIG, MAX_REQUEST_BUDGET_MS, MAX_TIME_LIMIT_MS
from solver.errors import InvalidOptionError, plain_int, shown

NODES_PER_MS = 500
"""Search work units (states visited plus the options they weigh) a deadline's
milliseconds buy as a deterministic budget.

The search gets through about 1,100 units per millisecond on hard hands on a
quiet core of the reference machine (2 cores, shared) and about 450 on small
ones (where fixed costs weigh more); the budget asks for about half, so on a
quiet machine the budget ends a search before the clock does and the same
request gives the same answer.  The wall clock is the backstop."""


class DeadlineExceeded(Exception):
    """The deadline passed, or the work was cancelled, before it finished."""


class Work:
    """A deterministic work budget (search states), shared by every search of
    one request; a sub-budget also charges its parent."""

    __slots__ = ("left", "parent")

    def __init__(self, left: float, parent: Work | None = None) -> None:
        self.left = left
        self.parent = parent

    def spend(self, amount: int) -> None:
        """Charge ``amount`` states (to the parents too)."""
        work: Work | None = self
        while work is not None:
            work.left -= amount
            work = work.parent


class Deadline:
    """When work must stop (see the module docstring)."""

    __slots__ = ("at", "cancel", "work")

    def __init__(self, at: float = math.inf, cancel: Callable[[], bool] | None = None,
                 work: Work | None = None) -> None:
        self.at = at
        self.cancel = cancel
        self.work = Work(math.inf if at == math.inf else
                         max(0.0, (at - time.monotonic()) * 1000.0 * NODES_PER_MS)) \
            if work is None else work

    @classmethod
    def after_ms(cls, ms: float, *, start: float | None = None,
                 cancel: Callable[[], bool] | None = None) -> Deadline:
        """``ms`` milliseconds after ``start`` (a ``time.monotonic()`` reading; now).

        The work budget is what ``ms`` buys (``NODES_PER_MS``), whatever part
        of it was already spent waiting: the same request gets the same
        budget."""
        begin = time.monotonic() if start is None else start
        return cls(begin + ms / 1000.0, cancel, Work(ms * NODES_PER_MS))

    @classmethod
    def never(cls) -> Deadline:
        """No deadline at all (library calls that ask for none)."""
        return cls()

    def within_ms(self, ms: float) -> Deadline:
        """The earlier of this deadline and ``ms`` from now (same cancel check),
        with a share of the work budget that also counts against this one."""
        return Deadline(min(self.at, time.monotonic() + ms / 1000.0), self.cancel,
                        Work(min(self.work.left, ms * NODES_PER_MS), self.work))

    def remaining_s(self) -> float:
        """Seconds left (negative once passed; ``inf`` without a deadline)."""
        return self.at - time.monotonic()

    def remaining_ms(self) -> float:
        """Milliseconds left."""
        return self.remaining_s() * 1000.0

    def cancelled(self) -> bool:
        """The work was cancelled (the caller went away)."""
        return self.cancel is not None and self.cancel()

    def expired(self) -> bool:
        """The instant passed or the work was cancelled."""
        return time.monotonic() >= self.at or self.cancelled()

    def check(self) -> None:
        """Raise ``DeadlineExceeded`` once ``expired()``."""
        if time.monotonic() >= self.at or (self.cancel is not None and self.cancel()):
            raise DeadlineExceeded

    def nodes(self, ceiling: int) -> int:
        """Search states the work budget still allows, at most ``ceiling``."""
        left = self.work.left
        # not max(0, int(left)): a budget of -inf (Deadline.after_ms(-math.inf))
        # or NaN raised from int(); each is no budget at all
        return ceiling if left >= ceiling else int(left) if left > 0 else 0


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a search runs.

    A search allocates hundreds of thousands of small tuples; the collector's
    full passes over them stall for tens of milliseconds at arbitrary moments,
    past any deadline.  Searches create no reference cycles (reference counting
    frees everything), so pausing is safe; the collector resumes afterwards.

    On resuming, everything allocated meanwhile is moved to the collector's
    permanent generation (``gc.freeze``, constant time) first: otherwise the
    next collection scans all of it at once -- 80 ms after a one-second hint,
    270 ms after a three-second one, past the deadline.  Reference counting
    still frees those objects as usual; a long-running process that also makes
    reference cycles can call ``gc.unfreeze()`` when idle (the API's solver
    processes do, between jobs).

    The collector is the process's: searches in several threads share one
    pause, from the first to start to the last to end (each reading and
    setting it on its own, a search that started as another ended could
    read it paused and leave it paused for good)."""
    global _gc_pauses, _gc_was_enabled
    with _gc_lock:
        if _gc_pauses == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pauses += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pauses -= 1
            if _gc_pauses == 0 and _gc_was_enabled:
                gc.freeze()
                gc.enable()


_gc_lock = threading.Lock()
_gc_pauses = 0
"""Searches running under ``gc_paused`` now (every thread's)."""
_gc_was_enabled = False
"""Whether the collector ran when the first of them started."""


class Ticker:
    """Calls ``deadline.check()`` once every ``every`` ticks (cheap in hot loops)."""

    __slots__ = ("count", "deadline", "every")

    def __init__(self, deadline: Deadline | None, every: int = 256) -> None:
        self.deadline = deadline
        self.every = every
        self.count = 0

    def tick(self) -> None:
        """Count one unit of work; check the deadline every ``every`` units."""
        self.count += 1
        if self.count >= self.every and self.deadline is not None:
            self.count = 0
            self.deadline.check()


# ---------------------------------------------------------------------------
# A call's deadline, from its arguments

def check_time_limit(time_limit_ms: object, default_ms: int | None = None,
                     most_ms: int = MAX_TIME_LIMIT_MS) -> int:
    """The time limit to use (``default_ms``, else the configured solve
    default, when None); ``InvalidOptionError`` when bad."""
    if time_limit_ms is None:
        return CONFIG.default_time_limit_ms if default_ms is None else default_ms
    limit_ms = plain_int(time_limit_ms)
    if limit_ms is None or not 1 <= limit_ms <= most_ms:
        raise InvalidOptionError(
            "time_limit_ms",
            f"time_limit_ms must be an integer from 1 to {most_ms}; got {shown(time_limit_ms)}",
            code="invalid_time_limit")
    return limit_ms


def check_deadline(deadline: object) -> Deadline | None:
    """``deadline`` when it is a ``Deadline`` or None; ``InvalidOptionError``
    (``invalid_deadline``) for anything else (a number of seconds or
    milliseconds belongs in ``time_limit_ms``)."""
    if deadline is None or isinstance(deadline, Deadline):
        return deadline
    raise InvalidOptionError(
        "deadline", f"deadline must be a solver.deadline.Deadline or None, not "
                    f"{type(deadline).__name__} (a time limit in milliseconds is time_limit_ms)",
        code="invalid_deadline")


def deadline_within(limit_ms: int | None, deadline: Deadline | None,
                    default_ms: int | None = None) -> Deadline:
    """The deadline of a call whose limit was already checked: ``deadline`` if
    given (cut to ``limit_ms`` when both are), else ``limit_ms`` (or
    ``default_ms``) from now; ``check_deadline`` refuses a ``deadline`` that
    is not one."""
    deadline = check_deadline(deadline)
    if deadline is None:
        if limit_ms is None:
            limit_ms = CONFIG.default_time_limit_ms if default_ms is None else default_ms
        return Deadline.after_ms(limit_ms)
    if limit_ms is None:
        return deadline
    return deadline.within_ms(limit_ms)


def resolve_deadline(time_limit_ms: object, deadline: Deadline | None,
                     default_ms: int | None = None,
                     most_ms: int = MAX_TIME_LIMIT_MS) -> Deadline:
    """The call's deadline: ``deadline`` if given (cut to ``time_limit_ms`` when
    both are), else ``time_limit_ms`` (or ``default_ms``) from now."""
    limit = None if time_limit_ms is None else check_time_limit(time_limit_ms, default_ms, most_ms)
    return deadline_within(limit, deadline, default_ms)


def time_ran_out(what: str) -> InvalidOptionError:
    """The error of a call whose deadline passed before ``what`` was done,
    without which it has nothing to answer (a history replayed, a record
    walked): ``time_limit_too_small`` at ``time_limit_ms``."""
    return InvalidOptionError("time_limit_ms", f"the time limit ran out before {what}; give a "
                                               "larger time_limit_ms", code="time_limit_too_small")


def play_deadline(time_limit_ms: object, deadline: Deadline | None) -> Deadline:
    """The deadline of a call that runs many solves (hints, gin and round
    scoring): the configured ``request_budget_ms`` unless the call gives a limit."""
    return resolve_deadline(time_limit_ms, deadline, CONFIG.request_budget_ms,
                            MAX_REQUEST_BUDGET_MS)
