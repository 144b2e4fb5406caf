"""Rebuilding the arrangement a search found, from its memo.

The search (``solver.engines.search``) remembers per state only its value and
its best choice (a row, or ``pool`` / ``dead`` / ``discard``).  An
arrangement is rebuilt by walking those choices from the root -- after a
given path first, e.g. the incumbent's -- and then paying the melds' wild
slots from the pooled cards as the search priced them: the melds (each with the
physical wild cards filling its slots), the layoffs, the wild cards laid off
alone, the deadwood and the discard.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from solver.engines.base import INFEASIBLE, PlacedMeld
from solver.engines.costs import PassCosts, Pool, PoolEntry, pool_key, settle
from solver.engines.packed import BITS, WEIGHT
from solver.engines.rows import Row
from solver.melds import Candidate, Extension, TableSpot, fill_wild_slots
from solver.rules import Deal


@dataclass(frozen=True, slots=True)
class Arrangement:
    """An arrangement found by the search: new melds, layoffs (each with the
    wild cards filling its wild slots), wild cards laid off alone as (table
    index, card), deadwood, discard and its pass cost."""

    melds: tuple[PlacedMeld, ...]
    layoffs: tuple[tuple[Extension, tuple[int, ...]], ...]
    lone_wilds: tuple[tuple[int, int], ...]
    deadwood: tuple[int, ...]
    discard: int | None
    cost: int


State = tuple[int, Pool, int, bool, int, int, int, int, tuple[int, ...]]
"""(code, pool, debt, discard owed, counters, points, used table melds, room,
barred cards) of a walk."""

Choice = Row | str
"""One decision of the search: a meld or layoff row, or ``pool`` / ``dead`` / ``discard``."""


class Searched(Protocol):
    """What rebuilding reads of a search that ran (``PassSearch`` is one)."""

    @property
    def costs(self) -> PassCosts: ...
    @property
    def memo(self) -> dict[tuple[object, ...], tuple[int, bool, object]]: ...
    @property
    def hand_cost(self) -> tuple[int, ...]: ...
    @property
    def step(self) -> list[list[int]]: ...
    @property
    def min_points(self) -> int: ...
    @property
    def points_cap(self) -> int: ...
    @property
    def table(self) -> tuple[TableSpot, ...]: ...
    @property
    def deal(self) -> Deal: ...
    @property
    def absorb_rooms(self) -> list[int]: ...
    def dual_in(self, code: int) -> int: ...
    def add_to_pool(self, pool: Pool, card: int) -> Pool: ...
    def absorb_room(self, used: int) -> int: ...
    def lone_plan(self, used: int, count: int) -> tuple[int, tuple[int, ...]]: ...
    def option_of(self, row: Row, lead: int, extra: int = 0) -> Candidate | Extension: ...
    def end_cost(self, pool: Pool, debt: int, owed: bool, cstate: int, points: int, used: int,
                 room: int = 0, barred: tuple[int, ...] = ()) -> int: ...


def rebuild(search: Searched, state: State, pool_cards: list[int],
            path: Sequence[Choice] = ()) -> Arrangement:
    """The arrangement from ``state`` (the pooled cards so far ``pool_cards``)
    that follows ``path`` (the choices from there, e.g. the incumbent's) and
    then the memo's exact choices."""
    chosen: list[Candidate | Extension] = []
    deadwood: list[int] = []
    debt, owed, used, discard, cost = _follow(search, state, pool_cards, chosen, deadwood,
                                              None, 0, path)
    filled = list(zip(chosen, fill_wild_slots(chosen, pool_cards[:debt], search.deal),
                      strict=True))
    placed = tuple(PlacedMeld(c, w) for c, w in filled if isinstance(c, Candidate))
    laid = tuple((c, w) for c, w in filled if isinstance(c, Extension))
    absorbed, leftover, thrown = _leftover(search, pool_cards, debt, owed, used)
    deadwood.extend(leftover)
    return Arrangement(placed, laid, tuple(absorbed), tuple(sorted(deadwood)),
                       discard if thrown is None else thrown, cost)


def discard_after(search: Searched, state: State, pool_cards: list[int]) -> int | None:
    """The discard of the arrangement the memo's choices build from ``state``
    (None when none is owed), without building it."""
    debt, owed, used, discard, _ = _follow(search, state, pool_cards, None, [], None, 0)
    thrown = _leftover(search, pool_cards, debt, owed, used)[2]
    return discard if thrown is None else thrown


def _follow(search: Searched, state: State, pool_cards: list[int],
            chosen: list[Candidate | Extension] | None, deadwood: list[int],
            discard: int | None, cost: int, path: Sequence[Choice] = (),
            ) -> tuple[int, bool, int, int | None, int]:
    """Walk ``path``, then the memo's exact choices, to the end; collects the
    pooled cards (sorted, most valuable first), melds (unless ``chosen`` is
    None; spare wild cards filling their room) and deadwood, and returns
    (wild cards melded, discard still owed, used table melds, discard, cost)."""
    code, pool, debt, owed, cstate, points, used, room, barred = state
    steps = iter(path)
    made: list[tuple[Row, int]] = []
    while code:
        if room and isinstance(pool, int):
            room = min(room, pool - debt + search.dual_in(code))
        choice: Choice | None = next(steps, None)
        if choice is None:
            if isinstance(pool, int):
                key: tuple[object, ...] = (code, pool - debt, owed, cstate, points, used, room)
            else:
                key = (code, debt, pool, owed, cstate, points, used, barred)
            _, exact, remembered = search.memo[key]
            assert exact and isinstance(remembered, Row | str)
            choice = remembered
        lead = ((code & -code).bit_length() - 1) // BITS
        code -= WEIGHT[lead]
        if choice == "pool":
            pool = search.add_to_pool(pool, lead)
            pool_cards.append(lead)
        elif choice == "dead":
            deadwood.append(lead)
            cost += search.hand_cost[lead]
        elif choice == "discard":
            discard, owed = lead, False
        else:
            assert isinstance(choice, Row)
            made.append((choice, lead))
            code -= choice.delta
            debt += choice.wilds
            if choice.barred:
                barred = tuple(sorted(barred + choice.barred))
            if choice.cls >= 0:
                cstate = search.step[cstate][choice.cls]
            points = min(points + choice.points, search.points_cap)
            used |= choice.slot
            room += choice.room
            cost += choice.cost
    end = search.end_cost(pool, debt, owed, cstate, points, used, room, barred)
    assert end < INFEASIBLE
    # The wild cards the melds' room takes (the table's are laid off later).
    spare = 0 if search.table or not isinstance(pool, int) else min(pool - debt - owed, room)
    debt += spare
    if chosen is not None:
        for row, lead in made:
            extra = min(spare, row.room)
            spare -= extra
            chosen.append(search.option_of(row, lead, extra))
    entry = search.costs.entry
    pool_cards.sort(key=lambda c: (*pool_key(entry(c)), c))
    if not isinstance(pool, int):
        _settle_order(search, pool, pool_cards, debt, owed, points, used, barred)
    return debt, owed, used, discard, cost + end


def _settle_order(search: Searched, pool: tuple[PoolEntry, ...], pool_cards: list[int],
                  debt: int, owed: bool, points: int, used: int,
                  barred: tuple[int, ...]) -> None:
    """Reorder the pooled cards (unlike wild cards) as ``costs.settle`` spends
    them, as ``end_cost`` priced them: the cards filling wild slots, those
    laid off alone, the discard, then those kept."""
    leftover = len(pool) - debt - owed
    laid_off = min(leftover, search.absorb_room(used)) if search.table else 0
    settled = settle(pool, debt, laid_off, owed, search.min_points - points, barred)
    assert settled is not None
    entry = search.costs.entry
    slots: list[int] = []
    alone: list[int] = []
    thrown: list[int] = []
    kept: list[int] = []
    for group, in_slots, laid, out in settled[1]:
        cards = [c for c in pool_cards if entry(c) == group]
        slots += cards[:in_slots]
        alone += cards[in_slots:in_slots + laid]
        thrown += cards[in_slots + laid:in_slots + laid + out]
        kept += cards[in_slots + laid + out:]
    pool_cards[:] = slots + alone + thrown + kept


def _leftover(search: Searched, pool_cards: list[int], debt: int, owed: bool, used: int,
              ) -> tuple[list[tuple[int, int]], list[int], int | None]:
    """The pooled cards left after the wild slots (``debt``) are paid: those
    laid off alone onto table melds as (table index, card), those kept, and
    the discard when one is still owed."""
    leftover = pool_cards[debt:]
    absorbed: list[tuple[int, int]] = []
    if search.table:
        room = min(len(leftover) - owed, search.absorb_room(used))
        takes = search.lone_plan(used, room)[1]
        spots = iter(spot.index for spot, k in zip(search.table, takes, strict=False)
                     for _ in range(k))
        absorbed = [(next(spots), card) for card in leftover[:room]]
        leftover = leftover[room:]
    return absorbed, leftover, leftover.pop(0) if owed else None
