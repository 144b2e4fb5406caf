"""The shared bounded cache (``solver.lru``): least recently used first out,
weights counted exactly, and safe when another thread evicts in the middle of
a hit (the race that raised ``KeyError`` from ``make_deal`` and the other
caches before they took a lock)."""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from solver import rules as rules_module
from solver import session
from solver.engines import caches, through
from solver.lru import LruCache
from solver.rules import make_deal, make_rules


class _ReorderLetsOthersRun(OrderedDict[Any, Any]):
    """Entries whose first reorder starts ``other`` in a thread and gives it
    0.2 s to finish before reordering: between a hit's lookup and its
    reorder, another thread's eviction runs (or waits for the lock)."""

    def __init__(self, entries: OrderedDict[Any, Any], other: Callable[[], object]) -> None:
        super().__init__(entries)
        self.other: Callable[[], object] | None = other
        self.thread: threading.Thread | None = None

    def move_to_end(self, key: Any, last: bool = True) -> None:
        other, self.other = self.other, None
        if other is not None:
            self.thread = threading.Thread(target=other)
            self.thread.start()
            self.thread.join(0.2)
        super().move_to_end(key, last)


class _NoLock:
    """A lock that does not lock: the cache as it was before it took one."""

    def acquire(self) -> bool:
        return True

    def release(self) -> None:
        return None

    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: object) -> None:
        return None


def _racing(cache: LruCache[str, int]) -> _ReorderLetsOthersRun:
    """``cache`` (limit 1, holding "a") with a hit on "a" interleaved with a
    put of "b" from another thread, which evicts "a"."""
    cache.put("a", 1)
    entries = _ReorderLetsOthersRun(cache._entries, lambda: cache.put("b", 2))
    cache._entries = entries
    return entries


def test_least_recently_used_goes_first_by_weight() -> None:
    cache: LruCache[str, list[int]] = LruCache(5)
    cache.put("a", [1, 2], 2)
    cache.put("b", [3, 4], 2)
    assert cache.get("a") == [1, 2]  # "b" is now the oldest
    cache.put("c", [5, 6], 2)
    assert cache.get("b") is None and len(cache) == 2 and cache.held == 4
    assert cache.put("d", list(range(9)), 9) == list(range(9))  # over the limit alone: not kept
    assert len(cache) == 0 and cache.held == 0


def test_a_value_already_kept_stays_the_one_returned() -> None:
    cache: LruCache[str, list[int]] = LruCache(10)
    first, second = [1], [1]
    assert cache.put("a", first) is first
    assert cache.put("a", second) is first and cache.held == 1


def test_get_tells_a_kept_none_from_a_miss() -> None:
    cache: LruCache[str, None] = LruCache(10)
    missing = object()
    cache.put("a", None)
    assert cache.get("a", missing) is None and cache.get("b", missing) is missing


def test_grow_counts_until_the_value_is_dropped() -> None:
    dropped: list[tuple[list[int], int]] = []
    cache: LruCache[str, list[int]] = LruCache(10, lambda value, weight: dropped.append((value, weight)))
    old, new = [1], [2]
    cache.put("old", old, 4)
    cache.put("new", new, 0)
    assert cache.grow("new", new, 5) and cache.held == 9
    assert cache.grow("new", new, 3)  # 12: the least recently used goes
    assert dropped == [(old, 4)] and cache.held == 8
    assert not cache.grow("old", old, 1) and not cache.grow("new", [2], 1)  # not the kept one
    assert cache.grow("new", new, 5)  # alone over the limit: dropped too
    assert dropped[-1] == (new, 13) and cache.held == 0 and len(cache) == 0


def test_an_eviction_between_a_hits_lookup_and_reorder_raised_keyerror_without_the_lock() -> None:
    cache: LruCache[str, int] = LruCache(1)
    cache._lock = _NoLock()  # type: ignore[assignment]
    entries = _racing(cache)
    with pytest.raises(KeyError):
        cache.get("a")
    assert entries.thread is not None
    entries.thread.join()


def test_an_eviction_from_another_thread_waits_for_the_hit() -> None:
    cache: LruCache[str, int] = LruCache(1)
    entries = _racing(cache)
    assert cache.get("a") == 1
    assert entries.thread is not None
    entries.thread.join()
    assert cache.get("a") is None and cache.get("b") == 2 and cache.held == 1


def test_make_deal_answers_a_hit_while_another_thread_evicts_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = make_rules("indian13")
    deals: LruCache[Any, Any] = LruCache(1)
    monkeypatch.setattr(rules_module, "_DEALS", deals)
    deal = make_deal(rules, "5")
    entries = _ReorderLetsOthersRun(deals._entries, lambda: make_deal(rules, "6"))
    deals._entries = entries
    assert make_deal(rules, "5") is deal
    assert entries.thread is not None
    entries.thread.join()
    assert len(deals) == 1 and deals.get((rules, "6")) is not None


@pytest.mark.parametrize("cache", [
    rules_module._INTERNED, rules_module._BY_REQUEST, rules_module._DEALS, through._TABLES,
    caches._SHARED_ROWS, caches._CANDIDATES, session._QUICK_BY_REQUEST])
def test_every_cache_the_library_shares_across_calls_is_locked(cache: object) -> None:
    assert isinstance(cache, LruCache)


@pytest.fixture
def tiny_switch_interval() -> Iterator[None]:
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


@pytest.mark.usefixtures("tiny_switch_interval")
def test_threads_hammering_one_cache_keep_its_weights_exact() -> None:
    cache: LruCache[int, int] = LruCache(50)
    errors: list[BaseException] = []

    def work(offset: int) -> None:
        try:
            for i in range(20_000):
                key = (i * 7 + offset) % 120
                if cache.get(key) is None:
                    cache.put(key, key, 1 + key % 3)
        except BaseException as error:  # a thread's error, asserted on below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert cache.held == sum(weight for _, weight in cache._entries.values()) <= 50
