"""Laying hand cards off onto melds already on the table, optimised exactly.

A *table meld* is a meld somebody has put down (any player's).  Hand cards can
extend it (RULES.md sections 5 and 7): the 4th card of a 3-card set, or cards
extending a run at either end, several at once and chained (5-6-7 takes 8,
then 9), within the ace rule (a run holds at most one ace and 13 cards; K-A-2
only under ``ace="wrap"``).  Wild cards may be laid off too; each states the
card it stands for.

``LayoffSearch.best`` chooses which hand cards form new melds (the shared
candidate generator and engine), which are laid off where, and which stay in
hand, under the variant's objective: least deadwood (``basic``, ``gin``) or
most net points (``rummy500``, ``rommy``: laid-off cards score for the player
who lays them off).  The Indian variants have no laying off.

How a table meld is read: its cards are given in meld order.  A run's wild
card keeps the meaning its position gives it (``5H 6H JK`` is 5-6-7 and takes
8H, ``JK 5H 6H`` is 4-5-6 and takes 3H) because a joker's meaning is fixed once
melded; a set's wild card stands for whichever missing suit keeps the set
valid.  A group that reads both as a run in the given order and as a set is
taken as the run.

The search is the exact search engine itself: a layoff is one more kind of
candidate (``solver.melds.layoffs_led_by``: the cards added to one table meld,
led by the lowest natural hand card among them), each table meld takes at most
one such extension (a bit mask in the engine's state), and wild cards left
over at the end are laid off alone onto table melds not yet extended.  So the
whole play is one dynamic programme over the hand's cards, exact, with no
enumeration of layoff combinations.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from solver.cards import NUM_CARD_TYPES, InvalidHandError, card_name, rank_of, sort_key, suit_of
from solver.classify import meld_problems, readings
from solver.engines.base import BudgetExceeded, Instance, PlacedMeld
from solver.engines.search import solve_with_table
from solver.melds import Candidate, Extension, TableSpot
from solver.model import Meld, Solution
from solver.rules import Deal, InvalidRulesError, Rules, base_points, melded_points
from solver.solve import DEFAULT_TIME_LIMIT_MS, build_meld, build_solution, run_engine

MAX_TABLE_MELDS = 50
MAX_MELD_CARDS = 14
DEFAULT_STATE_BUDGET = 100_000

Cost = tuple[int, int]
"""What the search minimises: (primary points, unmelded cards).  The primary
is the deadwood (``min_deadwood``) or minus the net (``max_net``); among equal
points, fewer cards left in hand wins."""


# ---------------------------------------------------------------------------
# Input helpers shared by the play functions


def objective_of(rules: Rules, what: str = "laying off") -> str:
    """``min_deadwood`` or ``max_net``; the Indian objectives have no laying off."""
    if rules.objective in ("min_deadwood", "max_net"):
        return rules.objective
    raise InvalidRulesError(
        "variant",
        f"variant {rules.name!r} has no {what}: an Indian hand is shown complete "
        "(use basic, gin, rummy500 or rommy)",
    )


class TimeBudget:
    """Time limits for a function that runs many solves: each solve gets
    ``per_solve_ms``, cut down to what is left of ``total_ms`` (at least 1 ms;
    a solve that runs out answers ``optimal=False`` rather than failing)."""

    def __init__(self, per_solve_ms: int = DEFAULT_TIME_LIMIT_MS, total_ms: int | None = None) -> None:
        self.per_solve_ms = per_solve_ms
        self.deadline = None if total_ms is None else time.perf_counter() + total_ms / 1000

    def expired(self) -> bool:
        """The total budget is spent."""
        return self.deadline is not None and time.perf_counter() > self.deadline

    def limit_ms(self) -> int:
        """The time limit for the next solve."""
        if self.deadline is None:
            return self.per_solve_ms
        left = int((self.deadline - time.perf_counter()) * 1000)
        return max(1, min(self.per_solve_ms, left))


Limit = int | TimeBudget
"""A per-solve time limit in milliseconds, or a ``TimeBudget``."""


def limit_ms(limit: Limit) -> int:
    """The time limit for the next solve under ``limit``."""
    return limit.limit_ms() if isinstance(limit, TimeBudget) else limit


def optimum(deal: Deal, cards: Iterable[int], discard: bool = False,
            limit: Limit = DEFAULT_TIME_LIMIT_MS) -> Solution:
    """``solve``'s optimum of already parsed ``cards`` (engine ``auto``)."""
    instance = Instance(deal, tuple(sorted(cards)), discard)
    result, engine = run_engine(instance, "auto", limit_ms(limit))
    return build_solution(result, deal, engine)


def points_cost(objective: str, deadwood_points: int, net_points: int, unmelded: int) -> Cost:
    """The cost the search minimises for an outcome (see ``Cost``)."""
    primary = deadwood_points if objective == "min_deadwood" else -net_points
    return (primary, unmelded)


# ---------------------------------------------------------------------------
# Table melds


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table, read once: ``low``/``high`` are the linear run
    coordinates of its ends (rank = coordinate mod 13; 13 is a high ace)."""

    index: int
    meld: Meld
    low: int
    high: int

    @property
    def kind(self) -> str:
        """``set``, ``run`` or ``tanala``."""
        return self.meld.kind

    @property
    def suit_base(self) -> int:
        """Card id of the ace of the run's suit."""
        return self.meld.represents[0] - rank_of(self.meld.represents[0])

    @classmethod
    def from_meld(cls, index: int, meld: Meld) -> TableMeld:
        """The table meld of an already read ``meld`` (runs listed low to high)."""
        low = rank_of(meld.represents[0]) if meld.kind == "run" else 0
        return cls(index, meld, low, low + len(meld.cards) - 1)


def read_table_meld(cards: Sequence[int], index: int, deal: Deal) -> TableMeld:
    """Read one table meld given in meld order (see the module docstring).

    Raises ``InvalidHandError`` (field ``table[index]``) when it is no meld.
    """
    field = f"table[{index}]"
    names = " ".join(card_name(c) for c in cards)
    if len(cards) > MAX_MELD_CARDS:
        raise InvalidHandError(
            f"{field} has {len(cards)} cards; a meld has at most 13",
            code="invalid_table_meld", field=field,
        )
    found = readings(cards, deal)
    if not found:
        problems = meld_problems(cards, deal)
        why = problems[0][1] if problems else "it cannot be read as a set or a run"
        raise InvalidHandError(
            f"{field} ({names}) is not a meld: {why}", code="invalid_table_meld", field=field,
        )
    given = tuple(cards)
    chosen = next((m for m in found if m.kind == "run" and m.cards == given), None)
    if chosen is None:
        chosen = next((m for m in found if m.kind == "run" and m.cards == given[::-1]), None)
    if chosen is None:
        chosen = next((m for m in found if m.kind == "set"), found[0])
    return TableMeld.from_meld(index, chosen)


def read_table(table: Sequence[Sequence[int]], deal: Deal) -> list[TableMeld]:
    """Read every table meld; at most ``MAX_TABLE_MELDS``."""
    if len(table) > MAX_TABLE_MELDS:
        raise InvalidHandError(
            f"table has {len(table)} melds; at most {MAX_TABLE_MELDS} are allowed",
            code="table_too_large", field="table",
        )
    return [read_table_meld(cards, i, deal) for i, cards in enumerate(table)]


# ---------------------------------------------------------------------------
# Extensions of one table meld


@dataclass(frozen=True, slots=True)
class Layoff:
    """Cards laid off onto table meld ``table_index``.

    ``cards[i]`` stands for ``represents[i]``; ``low`` of them extend a run
    downwards (listed outward from the meld), the rest upwards (or complete a
    set).  ``points`` is what they score melded; ``extended`` is the table meld
    afterwards, in meld order.
    """

    table_index: int
    cards: tuple[int, ...]
    represents: tuple[int, ...]
    low: int
    points: int
    extended: Meld

    @property
    def used(self) -> tuple[int, ...]:
        """The laid-off cards, sorted (what leaves the hand)."""
        return tuple(sorted(self.cards))

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "table_index": self.table_index,
            "cards": [card_name(c) for c in self.cards],
            "represents": [card_name(c) for c in self.represents],
            "points": self.points,
            "extended": self.extended.to_dict(),
        }


def _wild_types(counts: Sequence[int], deal: Deal) -> list[int]:
    return [c for c in sorted(deal.wild) if counts[c] > 0]


def _wild_room(meld: Meld, rules: Rules) -> int:
    if rules.max_wilds_per_meld is None:
        return 99
    return max(0, rules.max_wilds_per_meld - meld.wild_count)


def extensions(table_meld: TableMeld, counts: Sequence[int], deal: Deal) -> list[Layoff]:
    """Every non-empty way to lay cards from ``counts`` (copies per card type)
    onto ``table_meld``."""
    if table_meld.kind == "set":
        return _set_extensions(table_meld, counts, deal)
    if table_meld.kind == "run":
        return _run_extensions(table_meld, counts, deal)
    return []  # a tanala is exactly three identical cards


def _set_extensions(tm: TableMeld, counts: Sequence[int], deal: Deal) -> list[Layoff]:
    rules = deal.rules
    meld = tm.meld
    if len(meld.cards) >= 4:
        return []
    rank = rank_of(meld.represents[0])
    natural = [c for c, r in zip(meld.cards, meld.represents, strict=True) if c == r]
    substitutes = [c for c, r in zip(meld.cards, meld.represents, strict=True) if c != r]
    natural_suits = {suit_of(c) for c in natural}
    out: list[Layoff] = []
    for suit in range(4):
        card = rank + 13 * suit
        if counts[card] > 0 and (rules.set_allow_same_suit or suit not in natural_suits):
            extended = _set_meld([*natural, card], substitutes, deal)
            if extended is not None:
                out.append(Layoff(tm.index, (card,), (card,), 0,
                                  melded_points(card, card, deal, False), extended))
    if _wild_room(meld, rules) >= 1:
        for wild in _wild_types(counts, deal):
            extended = _set_meld(natural, [*substitutes, wild], deal)
            meanings = [] if extended is None else [
                r for c, r in zip(extended.cards, extended.represents, strict=True)
                if c == wild and c != r
            ]
            if extended is None or not meanings:
                continue  # a wild-rank card completing its own set is the natural case
            stands_for = meanings[0]
            out.append(Layoff(tm.index, (wild,), (stands_for,), 0,
                              melded_points(wild, stands_for, deal, False), extended))
    return out


def _set_meld(natural: list[int], substitutes: list[int], deal: Deal) -> Meld | None:
    """A set of ``natural`` cards (one rank) plus wild ``substitutes`` filling
    the missing suits in S H D C order, or None when it breaks the set rules."""
    rules = deal.rules
    rank = rank_of(natural[0])
    suits = [suit_of(c) for c in natural]
    if not rules.set_allow_same_suit and len(set(suits)) < len(suits):
        return None
    missing = [s for s in range(4) if s not in suits]
    if len(natural) + len(substitutes) > 4:
        return None
    if not rules.set_allow_same_suit and len(substitutes) > len(missing):
        return None
    wild_suits = (missing + list(range(4)))[: len(substitutes)]
    pairs = [(c, c) for c in natural]
    pairs += [(w, rank + 13 * s) for w, s in zip(sorted(substitutes), wild_suits, strict=True)]
    pairs.sort(key=lambda pair: (suit_of(pair[1]), pair[0]))
    cards = tuple(c for c, _ in pairs)
    represents = tuple(r for _, r in pairs)
    points = sum(melded_points(c, r, deal, False) for c, r in pairs)
    return Meld("set", cards, represents, False, points)


def _run_bounds(rules: Rules) -> tuple[int, int]:
    if rules.ace == "low":
        return 0, 12
    if rules.ace == "high_low":
        return 0, 13
    return -1000, 1000


def _run_extensions(tm: TableMeld, counts: Sequence[int], deal: Deal) -> list[Layoff]:
    rules = deal.rules
    meld = tm.meld
    lowest, highest = _run_bounds(rules)
    room = 13 - len(meld.cards)
    if room <= 0:
        return []
    low_slots = [q for q in range(tm.low - 1, tm.low - 1 - room, -1) if q >= lowest]
    high_slots = [q for q in range(tm.high + 1, tm.high + 1 + room) if q <= highest]
    wild_room = _wild_room(meld, rules)
    work = list(counts)
    wild_types = _wild_types(counts, deal)
    out: list[Layoff] = []
    low_placed: list[tuple[int, int]] = []  # (card, coordinate), outward from the meld
    high_placed: list[tuple[int, int]] = []

    def fill_choices(q: int, wilds_used: int) -> list[tuple[int, bool]]:
        natural = tm.suit_base + q % 13
        choices: list[tuple[int, bool]] = []
        if work[natural] > 0:
            choices.append((natural, False))
        if wilds_used < wild_room:
            choices += [(w, True) for w in wild_types if work[w] > 0 and w != natural]
        return choices

    def emit() -> None:
        if low_placed or high_placed:
            out.append(_run_layoff(tm, low_placed, high_placed, deal))

    def extend_high(k: int, wilds_used: int) -> None:
        emit()
        if k == len(high_slots) or len(low_placed) + len(high_placed) >= room:
            return
        q = high_slots[k]
        for card, is_wild in fill_choices(q, wilds_used):
            work[card] -= 1
            high_placed.append((card, q))
            extend_high(k + 1, wilds_used + is_wild)
            high_placed.pop()
            work[card] += 1

    def extend_low(k: int, wilds_used: int) -> None:
        extend_high(0, wilds_used)
        if k == len(low_slots) or len(low_placed) >= room:
            return
        q = low_slots[k]
        for card, is_wild in fill_choices(q, wilds_used):
            work[card] -= 1
            low_placed.append((card, q))
            extend_low(k + 1, wilds_used + is_wild)
            low_placed.pop()
            work[card] += 1

    extend_low(0, 0)
    return out


def _run_layoff(
    tm: TableMeld,
    low_placed: list[tuple[int, int]],
    high_placed: list[tuple[int, int]],
    deal: Deal,
) -> Layoff:
    meld = tm.meld
    new_low = low_placed[-1][1] if low_placed else tm.low

    def stands_for(q: int) -> int:
        return tm.suit_base + q % 13

    def is_low_ace(card: int, q: int) -> bool:
        return q == new_low and q % 13 == 0 and card == stands_for(q)

    laid = [*low_placed, *high_placed]
    cards = tuple(c for c, _ in laid)
    represents = tuple(stands_for(q) for _, q in laid)
    points = sum(melded_points(c, stands_for(q), deal, is_low_ace(c, q)) for c, q in laid)
    ordered = [*reversed(low_placed),
               *((c, tm.low + i) for i, c in enumerate(meld.cards)),
               *high_placed]
    extended = Meld(
        "run",
        tuple(c for c, _ in ordered),
        tuple(stands_for(q) for _, q in ordered),
        meld.pure and all(c == stands_for(q) for c, q in laid),
        sum(melded_points(c, stands_for(q), deal, is_low_ace(c, q)) for c, q in ordered),
    )
    return Layoff(tm.index, cards, represents, len(low_placed), points, extended)


# ---------------------------------------------------------------------------
# New melds placed by hand (with a chosen filling of their wild slots)


def wild_fillings(wilds: int, counts: Sequence[int], deal: Deal) -> list[tuple[int, ...]]:
    """Distinct multisets of ``wilds`` wild cards available in ``counts``."""
    types = _wild_types(counts, deal)
    out = []
    for combo in combinations_with_replacement(types, wilds):
        if all(combo.count(t) <= counts[t] for t in set(combo)):
            out.append(combo)
    return out


def place(candidate: Candidate, filling: tuple[int, ...], deal: Deal) -> Meld:
    """The meld of ``candidate`` with its wild slots filled by ``filling``."""
    return build_meld(PlacedMeld(candidate, filling), deal)


# ---------------------------------------------------------------------------
# The search


@dataclass(frozen=True, slots=True)
class Play:
    """The best way to play a hand: new melds, layoffs, cards kept in hand.

    ``net_points`` = ``meld_points`` + ``layoff_points`` - ``deadwood_points``.
    ``optimal`` is false only when an engine call could not prove its answer.
    """

    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood: tuple[int, ...]
    deadwood_points: int
    meld_points: int
    layoff_points: int
    net_points: int
    optimal: bool

    def cost(self, objective: str) -> Cost:
        """The search cost of this play under ``objective``."""
        return points_cost(objective, self.deadwood_points, self.net_points, len(self.deadwood))

    def to_dict(self) -> dict[str, Any]:
        """Wire form with card names."""
        return {
            "melds": [m.to_dict() for m in self.melds],
            "layoffs": [lay.to_dict() for lay in self.layoffs],
            "deadwood": [card_name(c) for c in self.deadwood],
            "deadwood_points": self.deadwood_points,
            "meld_points": self.meld_points,
            "layoff_points": self.layoff_points,
            "net_points": self.net_points,
            "optimal": self.optimal,
        }


def combine(deal: Deal, melds: Iterable[Meld], layoffs: Iterable[Layoff],
            deadwood: Iterable[int], optimal: bool) -> Play:
    """A ``Play`` from its parts, with the points worked out."""
    melds = tuple(melds)
    layoffs = tuple(sorted(layoffs, key=lambda lay: lay.table_index))
    deadwood = tuple(sorted(deadwood, key=sort_key))
    dead = sum(base_points(c, deal) for c in deadwood)
    meld_points = sum(m.points for m in melds)
    layoff_points = sum(lay.points for lay in layoffs)
    return Play(melds, layoffs, deadwood, dead, meld_points, layoff_points,
                meld_points + layoff_points - dead, optimal)


class LayoffSearch:
    """The exact best play of hands against one table (see the module docstring).

    Layoffs are candidates of the search engine itself (``layoffs_led_by``):
    the engine decides, card by card, between new melds, layoffs onto table
    melds not yet extended, the deadwood and (for wild cards left over) a
    layoff of the wild alone.  One search answers many hands (``best``),
    each cached by (cards, table melds skipped).
    """

    def __init__(
        self,
        deal: Deal,
        table: Sequence[TableMeld],
        *,
        limit: Limit = DEFAULT_TIME_LIMIT_MS,
        state_budget: int = DEFAULT_STATE_BUDGET,
    ) -> None:
        self.deal = deal
        self.objective = objective_of(deal.rules)
        self.table = list(table)
        self.limit = limit
        self.state_budget = state_budget
        self.cache: dict[tuple[tuple[int, ...], frozenset[int]], tuple[Cost, Play]] = {}

    def best(self, cards: Iterable[int], skip: Iterable[int] = ()) -> tuple[Cost, Play]:
        """The best play of ``cards`` (the table melds in ``skip`` take nothing)."""
        hand = tuple(sorted(cards))
        skipped = frozenset(skip)
        hit = self.cache.get((hand, skipped))
        if hit is not None:
            return hit
        table = [tm for tm in self.table if tm.index not in skipped]
        by_index = {tm.index: tm for tm in table}
        started = time.perf_counter()
        time_limit_ms = limit_ms(self.limit)
        try:
            if isinstance(self.limit, TimeBudget) and self.limit.expired():
                raise BudgetExceeded
            found = solve_with_table(
                Instance(self.deal, hand, False), [table_spot(tm, self.deal) for tm in table],
                self.state_budget, time_limit_ms / 1000,
            )
        except BudgetExceeded:
            out_of_time = (time.perf_counter() - started) * 1000 >= time_limit_ms or (
                isinstance(self.limit, TimeBudget) and self.limit.expired())
            raise InvalidHandError(
                f"the exact layoff search ran out of {'time' if out_of_time else 'states'} "
                f"({len(hand)} cards, {len(table)} table melds): give fewer table melds, "
                "fewer wild cards or a smaller hand", code="search_too_large", field="table",
            ) from None
        layoffs = [_layoff_of(by_index[ext.table_index], ext, wilds, self.deal)
                   for ext, wilds in found.layoffs]
        lone: dict[int, list[int]] = {}
        for index, card in found.lone_wilds:
            lone.setdefault(index, []).append(card)
        layoffs += [_lone_wild_layoff(by_index[index], wilds, self.deal)
                    for index, wilds in lone.items()]
        melds = [build_meld(placed, self.deal) for placed in found.melds]
        play = combine(self.deal, melds, layoffs, found.deadwood, True)
        answer = (play.cost(self.objective), play)
        self.cache[(hand, skipped)] = answer
        return answer


def table_spot(tm: TableMeld, deal: Deal) -> TableSpot:
    """What the candidate generator needs to know of table meld ``tm``."""
    meld = tm.meld
    room = _wild_room(meld, deal.rules)
    if tm.kind == "run":
        return TableSpot(tm.index, "run", len(meld.cards), room, suit_base=tm.suit_base,
                         low=tm.low, high=tm.high)
    if tm.kind == "set":
        suits = frozenset(suit_of(c) for c, r in zip(meld.cards, meld.represents, strict=True)
                          if c == r)
        return TableSpot(tm.index, "set", len(meld.cards), room,
                         rank=rank_of(meld.represents[0]), natural_suits=suits)
    return TableSpot(tm.index, meld.kind, len(meld.cards), 0)


def _layoff_of(tm: TableMeld, ext: Extension, wilds: tuple[int, ...], deal: Deal) -> Layoff:
    """The ``Layoff`` of an engine extension with its wild slots filled."""
    if tm.kind == "set":
        (card,) = ext.naturals
        natural = [c for c, r in zip(tm.meld.cards, tm.meld.represents, strict=True) if c == r]
        substitutes = [c for c, r in zip(tm.meld.cards, tm.meld.represents, strict=True) if c != r]
        extended = _set_meld([*natural, card], substitutes, deal)
        assert extended is not None
        return Layoff(tm.index, (card,), (card,), 0, melded_points(card, card, deal, False),
                      extended)
    fill = iter(wilds)
    placed = [(rep if natural else next(fill), q)
              for q, rep, natural in zip(ext.coords, ext.represents, ext.natural_at, strict=True)]
    low_placed = [pair for pair in reversed(placed) if pair[1] < tm.low]
    high_placed = [pair for pair in placed if pair[1] > tm.high]
    return _run_layoff(tm, low_placed, high_placed, deal)


def _lone_wild_layoff(tm: TableMeld, wilds: list[int], deal: Deal) -> Layoff:
    """Wild cards laid off alone: a set's missing suit, or a run's ends (high end first)."""
    if tm.kind == "set":
        natural = [c for c, r in zip(tm.meld.cards, tm.meld.represents, strict=True) if c == r]
        substitutes = [c for c, r in zip(tm.meld.cards, tm.meld.represents, strict=True) if c != r]
        extended = _set_meld(natural, [*substitutes, *wilds], deal)
        assert extended is not None
        taken = list(substitutes)
        meanings = []
        for c, r in zip(extended.cards, extended.represents, strict=True):
            if c in wilds and c != r:
                if c in taken:
                    taken.remove(c)
                else:
                    meanings.append((c, r))
        points = sum(melded_points(c, r, deal, False) for c, r in meanings)
        return Layoff(tm.index, tuple(c for c, _ in meanings), tuple(r for _, r in meanings), 0,
                      points, extended)
    lowest, highest = _run_bounds(deal.rules)
    if deal.rules.ace == "wrap":
        lowest, highest = tm.high - 12, tm.low + 12
    free_high = list(range(tm.high + 1, highest + 1))
    free_low = list(range(tm.low - 1, lowest - 1, -1))
    slots = [*free_high, *free_low][: len(wilds)]
    high_placed = [(w, q) for w, q in zip(wilds, slots, strict=False) if q > tm.high]
    low_placed = [(w, q) for w, q in zip(wilds, slots, strict=False) if q < tm.low]
    return _run_layoff(tm, low_placed, high_placed, deal)


def count_cards(cards: Iterable[int]) -> list[int]:
    """Copies of each card type (53 entries)."""
    counts = [0] * NUM_CARD_TYPES
    for card in cards:
        counts[card] += 1
    return counts
