"""Meld combinatorics of standard gin for the arena (no ``solver`` import):
every meld, the least deadwood of a hand, its best arrangements, and the
layoff rule OpenSpiel plays.

Melds come in OpenSpiel's shapes, the ones a player lays on the table: a set
of 3 or 4 cards of one rank, or a run of 3 to 5 cards of one suit (ace low
only, no run around the corner).  A longer run is laid as two or more of
these, so the least deadwood is the same as with runs of any length.

The least deadwood is a search on the hand's lowest card: it is either
deadwood or in one of the (at most 9) melds that hold it.  Results are cached
by hand mask across calls; the tests check it against brute force over meld
subsets.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence

from benchmarks.arena.gin.cards import (
    DECK_SIZE,
    POINTS,
    RANK_COUNT,
    SUIT_COUNT,
    cards_of,
    mask_of,
    points_of,
    rank_of,
    suit_of,
)

SET_SIZES = (3, 4)
RUN_SIZES = (3, 4, 5)
CACHE_SIZE = 1 << 18


def _every_meld() -> tuple[int, ...]:
    melds = []
    for rank in range(RANK_COUNT):
        for size in SET_SIZES:
            for suits in itertools.combinations(range(SUIT_COUNT), size):
                melds.append(mask_of(suit * RANK_COUNT + rank for suit in suits))
    for suit in range(SUIT_COUNT):
        for size in RUN_SIZES:
            for low in range(RANK_COUNT - size + 1):
                melds.append(mask_of(suit * RANK_COUNT + rank for rank in range(low, low + size)))
    return tuple(melds)


ALL_MELDS: tuple[int, ...] = _every_meld()
"""Every meld of the deck as a mask: 65 sets and 120 runs (OpenSpiel's 185)."""

MELDS_WITH: tuple[tuple[int, ...], ...] = tuple(
    tuple(meld for meld in ALL_MELDS if meld >> card & 1) for card in range(DECK_SIZE)
)
"""For each card, the melds that hold it."""


def is_meld(cards: Sequence[int]) -> bool:
    """Whether ``cards`` form one meld of OpenSpiel's shapes."""
    return len(set(cards)) == len(cards) and mask_of(cards) in _MELD_SET


_MELD_SET = frozenset(ALL_MELDS)


def melds_in(mask: int) -> tuple[int, ...]:
    """Every meld whose cards are all in ``mask``."""
    return tuple(meld for meld in ALL_MELDS if meld & mask == meld)


@functools.lru_cache(maxsize=CACHE_SIZE)
def min_deadwood(mask: int) -> int:
    """The least deadwood points of the cards in ``mask``, every card kept."""
    if not mask:
        return 0
    low = mask & -mask
    card = low.bit_length() - 1
    best = POINTS[card] + min_deadwood(mask ^ low)
    for meld in MELDS_WITH[card]:
        if meld & mask == meld:
            rest = min_deadwood(mask ^ meld)
            if rest < best:
                best = rest
    return best


@functools.lru_cache(maxsize=CACHE_SIZE)
def min_deadwood_after_discard(mask: int) -> int:
    """The least deadwood of ``mask`` after discarding its best card (the
    exact minimum over every discard: what decides whether 11 cards knock).

    The same search as ``min_deadwood`` with one more choice for the lowest
    card, being the discard, so one pass instead of one per card."""
    if not mask:
        raise ValueError("no card to discard")
    low = mask & -mask
    card = low.bit_length() - 1
    rest = mask ^ low
    best = min_deadwood(rest)  # this card is the discard
    if rest:
        best = min(best, POINTS[card] + min_deadwood_after_discard(rest))
        for meld in MELDS_WITH[card]:
            if meld & mask == meld:
                if meld == mask:
                    continue  # nothing left to discard but a meld card
                best = min(best, min_deadwood_after_discard(mask ^ meld))
    return best


def melded_cards(mask: int) -> int:
    """The union of every meld inside ``mask`` (cards that can meld at all)."""
    out = 0
    for meld in melds_in(mask):
        out |= meld
    return out


def meld_completers(mask: int) -> int:
    """The cards (as a mask) that would make a new meld with ``mask``: each
    is the one card a meld lacks there."""
    out = 0
    for meld in ALL_MELDS:
        missing = meld & ~mask
        if missing and not missing & (missing - 1):
            out |= missing
    return out


def arrangements(mask: int, max_deadwood: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every split of ``mask`` into melds + deadwood worth at most
    ``max_deadwood``: ``(melds, deadwood_mask)``.  A run longer than five
    cards shows up as its ways of being laid in pieces of 3-5."""

    def walk(rest: int, chosen: tuple[int, ...], dead: int, dead_points: int
             ) -> Iterator[tuple[tuple[int, ...], int]]:
        if dead_points + min_deadwood(rest) > max_deadwood:
            return  # even the best of the rest is over the limit
        if not rest:
            yield chosen, dead
            return
        low = rest & -rest
        card = low.bit_length() - 1
        yield from walk(rest ^ low, chosen, dead | low, dead_points + POINTS[card])
        for meld in MELDS_WITH[card]:
            if meld & rest == meld:
                yield from walk(rest ^ meld, (*chosen, meld), dead, dead_points)

    yield from walk(mask, (), 0, 0)


def best_arrangements(mask: int) -> list[tuple[tuple[int, ...], int]]:
    """Every least-deadwood arrangement of ``mask`` (ties included)."""
    return list(arrangements(mask, min_deadwood(mask)))


def best_melds(mask: int) -> tuple[int, ...]:
    """The melds of one least-deadwood arrangement (the first one found)."""
    melds, _ = next(arrangements(mask, min_deadwood(mask)))
    return melds


# ---------------------------------------------------------------------------
# Layoffs, as OpenSpiel's ``AllLayoffs`` allows them


def layoff_targets(knocker_melds: Sequence[int], laid_off: Sequence[int]) -> int:
    """The cards (as a mask) the defender may lay off next, OpenSpiel's rule:
    a 3-card set takes its missing suit, a 4-card set nothing, and a run
    takes the card past either end, where an end counts a card already laid
    off right next to the meld as laid.  So a run grows by at most two cards
    at each end; a longer chain is a meld of its own, so no score depends
    on it."""
    laid = mask_of(laid_off)
    targets = 0
    for meld in knocker_melds:
        cards = cards_of(meld)
        if len({rank_of(c) for c in cards}) == 1:
            if len(cards) == 3:
                missing = next(s for s in range(SUIT_COUNT) if not any(suit_of(c) == s for c in cards))
                targets |= 1 << (missing * RANK_COUNT + rank_of(cards[0]))
            continue
        low, high = cards[0], cards[-1]
        below = low - 1 if rank_of(low) > 0 else None
        above = high + 1 if rank_of(high) < RANK_COUNT - 1 else None
        if below is not None and laid >> below & 1:
            low = below
        if above is not None and laid >> above & 1:
            high = above
        if rank_of(low) > 0:
            targets |= 1 << (low - 1)
        if rank_of(high) < RANK_COUNT - 1:
            targets |= 1 << (high + 1)
    return targets


def best_defence(hand: int, knocker_melds: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """The defender's least deadwood after layoffs and its own melds: the
    cards to lay off (in an order the rule accepts) and the deadwood left.
    Exhaustive over layoff orders; a knocked hand has few candidates."""
    best: tuple[tuple[int, ...], int] = ((), min_deadwood(hand))
    seen: set[tuple[int, int]] = set()

    def walk(rest: int, laid: tuple[int, ...]) -> None:
        nonlocal best
        key = (rest, mask_of(laid))
        if key in seen:
            return
        seen.add(key)
        here = min_deadwood(rest)
        if here < best[1]:
            best = (laid, here)
        for card in cards_of(layoff_targets(knocker_melds, laid) & rest):
            walk(rest ^ (1 << card), (*laid, card))

    walk(hand, ())
    return best


def split_run(cards: Sequence[int]) -> list[tuple[int, ...]]:
    """A meld of any length in pieces OpenSpiel accepts (runs of 3-5): a run
    of 6 is 3 + 3, of 7 is 3 + 4, of 8 is 3 + 5, and so on."""
    ordered = sorted(cards)
    pieces = []
    while len(ordered) > max(RUN_SIZES):
        pieces.append(tuple(ordered[:3]))  # what is left is 3 or more
        ordered = ordered[3:]
    pieces.append(tuple(ordered))
    return pieces


__all__ = [
    "ALL_MELDS",
    "MELDS_WITH",
    "arrangements",
    "best_arrangements",
    "best_defence",
    "best_melds",
    "is_meld",
    "layoff_targets",
    "meld_completers",
    "melded_cards",
    "melds_in",
    "min_deadwood",
    "min_deadwood_after_discard",
    "points_of",
    "split_run",
]
