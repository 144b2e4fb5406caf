"""What every search of the process shares: option rows and meld candidates.

Option rows (``solver.engines.rows``) depend only on the deal, the pass, the
wild cap and the pool profile, never on the rest of the hand, so every search
of the same deal shares them; meld candidates depend only on the meld rules
and the counts around their lead card, so every deal with the same meld rules
shares them.  Both caches are bounded by what they hold (rows and candidates,
about 200 bytes each), least recently used first out (``solver.lru``): a
process solving any stream of deals stays near a hundred megabytes, and the
threads of one process share them.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from solver.deadline import Deadline
from solver.engines.packed import SIGNATURE, unpack
from solver.lru import LruCache
from solver.melds import Candidate, melds_led_by, melds_through
from solver.rules import Deal

_Row = TypeVar("_Row")

ROWS_HELD_LIMIT = 250_000
"""Option rows kept across searches (all spaces together)."""
CANDIDATES_HELD_LIMIT = 250_000
"""Meld candidates kept across searches."""


class RowCache(dict[object, list[_Row]], Generic[_Row]):
    """The option rows (``solver.engines.rows.Row``) of one space (deal, pass,
    wild cap, pricing).  ``key`` is its key among the shared spaces, None
    for a space private to one search or dropped from the shared ones (a
    search may still be filling it), which counts its rows in ``held``."""

    __slots__ = ("held", "key")

    def __init__(self, key: tuple[object, ...] | None = None) -> None:
        super().__init__()
        self.held = 0
        self.key = key


def _unshare(cache: RowCache[Any], held: int) -> None:
    """A row space dropped from the shared ones: it counts its own rows now."""
    cache.key = None
    cache.held = held


_SHARED_ROWS: LruCache[tuple[object, ...], RowCache[Any]] = LruCache(ROWS_HELD_LIMIT, _unshare)


def shared_rows(key: tuple[object, ...]) -> RowCache[Any]:
    """The shared row space ``key`` (made empty on first use)."""
    hit = _SHARED_ROWS.get(key)
    if hit is not None:
        return hit
    return _SHARED_ROWS.put(key, RowCache(key), 0)


def hold_rows(cache: RowCache[Any], count: int) -> None:
    """Count ``count`` more rows held by ``cache``; past ``ROWS_HELD_LIMIT``
    drop the least recently used spaces (a space over it alone is emptied,
    as is a private one)."""
    key = cache.key
    if key is None or not _SHARED_ROWS.grow(key, cache, count):
        cache.held += count
    if cache.key is None and cache.held > _SHARED_ROWS.limit:
        cache.clear()
        cache.held = 0


_CANDIDATES: LruCache[tuple[object, ...], list[Candidate]] = LruCache(CANDIDATES_HELD_LIMIT)


def known_candidates(key: tuple[object, ...]) -> list[Candidate] | None:
    """The candidates kept under ``key`` (None when not kept)."""
    return _CANDIDATES.get(key)


def keep_candidates(key: tuple[object, ...], found: list[Candidate]) -> list[Candidate]:
    """Keep ``found`` under ``key`` and return what is kept there (``found``,
    or an equal list another thread kept first); past
    ``CANDIDATES_HELD_LIMIT`` the least recently used lists go first."""
    return _CANDIDATES.put(key, found, len(found))


def candidates(lead: int, counts: list[int], deal: Deal, wild_cap: int, pure_only: bool,
               deadline: Deadline | None) -> list[Candidate]:
    """``melds_led_by``, cached across deals: candidates depend on the meld
    rules and the counts around the lead, not on which cards are wild."""
    rules = deal.rules
    key = (rules.ace, rules.tanala_enabled, rules.set_allow_same_suit, rules.set_size_limit,
           rules.min_run_length, rules.min_naturals_per_meld, rules.max_wilds_per_meld,
           lead, wild_cap, pure_only, tuple(counts[lead - lead % 13: lead - lead % 13 + 13]),
           tuple(counts[lead % 13 + 13 * s] for s in range(4)))
    hit = _CANDIDATES.get(key)
    if hit is not None:
        return hit
    return keep_candidates(key, melds_led_by(lead, counts, deal, wild_cap, pure_only, deadline))


def through_candidates(card: int, code: int, deal: Deal, wild_cap: int, pure_only: bool,
                       deadline: Deadline | None) -> list[Candidate]:
    """``melds_through`` ``card`` with the hand ``code``, cached across deals
    and passes."""
    rules = deal.rules
    key = ("through", rules.ace, rules.tanala_enabled, rules.set_allow_same_suit,
           rules.set_size_limit, rules.min_run_length, rules.min_naturals_per_meld,
           rules.max_wilds_per_meld, card, wild_cap, pure_only, code & SIGNATURE[card])
    hit = _CANDIDATES.get(key)
    if hit is not None:
        return hit
    return keep_candidates(key, melds_through(card, unpack(code), deal, wild_cap, pure_only,
                                              deadline))
