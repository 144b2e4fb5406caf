"""What every search of the process shares: option rows and meld candidates.

Option rows (``solver.engines.rows``) depend only on the deal, the pass, the
wild cap and the pool profile, never on the rest of the hand, so every search
of the same deal shares them; meld candidates depend only on the meld rules
and the counts around their lead card, so every deal with the same meld rules
shares them.  Both caches are bounded by what they hold (rows and candidates,
about 200 bytes each), least recently used spaces dropped first: a process
solving any stream of deals stays near a hundred megabytes.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Generic, TypeVar

from solver.deadline import Deadline
from solver.engines.packed import SIGNATURE, unpack
from solver.melds import Candidate, melds_led_by, melds_through
from solver.rules import Deal

_Row = TypeVar("_Row")

ROWS_HELD_LIMIT = 250_000
"""Option rows kept across searches (all spaces together)."""
CANDIDATES_HELD_LIMIT = 250_000
"""Meld candidates kept across searches."""


class RowCache(dict[object, list[_Row]], Generic[_Row]):
    """The option rows (``solver.engines.rows.Row``) of one space (deal, pass,
    wild cap, pricing), counted."""

    __slots__ = ("held", "registered")

    def __init__(self, registered: bool = True) -> None:
        super().__init__()
        self.held = 0
        self.registered = registered  # counted in the shared limit


_SHARED_ROWS: OrderedDict[tuple[object, ...], RowCache[Any]] = OrderedDict()
_rows_held = 0


def shared_rows(key: tuple[object, ...]) -> RowCache[Any]:
    """The shared row space ``key`` (made empty on first use)."""
    hit = _SHARED_ROWS.get(key)
    if hit is not None:
        _SHARED_ROWS.move_to_end(key)
        return hit
    cache: RowCache[Any] = RowCache()
    _SHARED_ROWS[key] = cache
    return cache


def hold_rows(cache: RowCache[Any], count: int) -> None:
    """Count ``count`` more rows held by ``cache``; past ``ROWS_HELD_LIMIT``
    drop the least recently used spaces (a space over it alone is emptied)."""
    global _rows_held
    if not cache.registered:  # private to one search, or dropped while it runs
        cache.held += count
        if cache.held > ROWS_HELD_LIMIT:
            cache.clear()
            cache.held = 0
        return
    cache.held += count
    _rows_held += count
    while _rows_held > ROWS_HELD_LIMIT and _SHARED_ROWS:
        key, oldest = next(iter(_SHARED_ROWS.items()))
        if oldest is cache:
            break
        del _SHARED_ROWS[key]
        _rows_held -= oldest.held
        oldest.registered = False
        oldest.held = 0
    if _rows_held > ROWS_HELD_LIMIT:
        _rows_held -= cache.held
        cache.clear()
        cache.held = 0


_CANDIDATES: OrderedDict[tuple[object, ...], list[Candidate]] = OrderedDict()
_candidates_held = 0


def known_candidates(key: tuple[object, ...]) -> list[Candidate] | None:
    """The candidates kept under ``key`` (None when not kept)."""
    return _CANDIDATES.get(key)


def keep_candidates(key: tuple[object, ...], found: list[Candidate]) -> None:
    """Keep ``found`` under ``key``; past ``CANDIDATES_HELD_LIMIT`` the
    oldest lists go first."""
    global _candidates_held
    _CANDIDATES[key] = found
    _candidates_held += len(found)
    while _candidates_held > CANDIDATES_HELD_LIMIT and len(_CANDIDATES) > 1:
        _candidates_held -= len(_CANDIDATES.popitem(last=False)[1])


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
    found = melds_led_by(lead, counts, deal, wild_cap, pure_only, deadline)
    keep_candidates(key, found)
    return found


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
    found = melds_through(card, unpack(code), deal, wild_cap, pure_only, deadline)
    keep_candidates(key, found)
    return found
