"""The library's bounded caches: a map threads may share, least recently used first out.

What the library works out once and reuses across calls (interned rules,
deals, effect tables, option rows, meld candidates) is kept in an
``LruCache``, bounded by what its entries weigh (an entry, or the rows and
candidates it holds).  The API's thread pool and a caller's own threads share
these caches, so each read that reorders and each write that evicts holds the
cache's lock: unlocked, a hit's reorder ran after another thread had evicted
the entry (``KeyError``), and two threads adding at once lost a count.

>>> cache: LruCache[str, int] = LruCache(2)
>>> cache.put("a", 1), cache.put("b", 2), cache.get("a")
(1, 2, 1)
>>> cache.put("c", 3)  # over the limit: "b" was used least recently
3
>>> cache.get("b"), len(cache), cache.held
(None, 2, 2)
>>> cache.put("a", 10)  # already kept: the first value stays, so equal work is shared
1
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar, overload

_Key = TypeVar("_Key")
_Value = TypeVar("_Value")
_Default = TypeVar("_Default")


class LruCache(Generic[_Key, _Value]):
    """Values by key, their weights together at most ``limit`` (``held``):
    past it the least recently used go first, and ``dropped(value, weight)``
    (if given) hears of each, under the lock.  A value may be None (``get``
    takes a default to tell it from a miss)."""

    __slots__ = ("_dropped", "_entries", "_lock", "held", "limit")

    def __init__(self, limit: int,
                 dropped: Callable[[_Value, int], object] | None = None) -> None:
        self.limit = limit
        self.held = 0
        self._entries: OrderedDict[_Key, tuple[_Value, int]] = OrderedDict()
        self._lock = threading.Lock()
        self._dropped = dropped

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def get(self, key: _Key) -> _Value | None: ...

    @overload
    def get(self, key: _Key, default: _Default) -> _Value | _Default: ...

    def get(self, key: _Key, default: object = None) -> object:
        """The value kept under ``key`` (now the most recently used), else ``default``."""
        # acquire/release, not ``with``: on CPython 3.11 half the cost of a
        # hit (about 230 ns against 380 ns), and a hit is every solve's path
        self._lock.acquire()
        try:
            entry = self._entries.get(key)
            if entry is None:
                return default
            self._entries.move_to_end(key)
            return entry[0]
        finally:
            self._lock.release()

    def put(self, key: _Key, value: _Value, weight: int = 1) -> _Value:
        """Keep ``value`` under ``key``, weighing ``weight``, and return it --
        or the value already kept there, unchanged: two threads that worked
        out the same entry at once both get the first (``make_rules``
        promises one object per value).  A value that alone weighs more than
        the limit is returned but not kept."""
        self._lock.acquire()
        try:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
                return entry[0]
            self._entries[key] = (value, weight)
            self.held += weight
            self._evict()
            return value
        finally:
            self._lock.release()

    def grow(self, key: _Key, value: _Value, weight: int) -> bool:
        """Count ``weight`` more for ``value`` (a container filled after it
        was put) if it is still the value under ``key``, evicting past the
        limit (``value`` too, when it alone weighs more).  False, and nothing
        counted, when it is no longer kept."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] is not value:
                return False
            self._entries[key] = (value, entry[1] + weight)
            self.held += weight
            self._evict()
            return True

    def clear(self) -> None:
        """Drop every entry (``dropped`` is not told)."""
        with self._lock:
            self._entries.clear()
            self.held = 0

    def _evict(self) -> None:
        while self.held > self.limit and self._entries:
            _, (value, weight) = self._entries.popitem(last=False)
            self.held -= weight
            if self._dropped is not None:
                self._dropped(value, weight)
