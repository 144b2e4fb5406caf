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
taken as the run; one that reads as a set and only as a run listed high to
low (``KH JK JK``: K-A-2 is no run) is the set.  A run given in another order
is read only where its wild cards have one place (``JK 7H 5H`` is 5-6-7);
``6H JK 5H`` (4-5-6 or 5-6-7?) is no table meld.

The search is the exact search engine itself: a layoff is one more kind of
candidate (``solver.melds.layoffs_led_by``: the cards added to one table meld,
led by the lowest natural hand card among them), each table meld takes at most
one such extension (a bit mask in the engine's state), and wild cards left
over at the end are laid off alone onto table melds not yet extended.  So the
whole play is one dynamic programme over the hand's cards, exact, with no
enumeration of layoff combinations.  The listing of every extension
(``extensions``) is derived from the same generator.

A player who has laid down plays on without the opening rules (requirements,
threshold); under ``new_melds_after_opening=false`` (contract rummy) it may
only lay off.  Every search runs until the request's deadline: past it, the
best play found so far is answered with ``optimal=False``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass
from itertools import combinations_with_replacement, islice
from typing import Any

from solver.assemble import build_meld
from solver.cards import JOKER, NUM_CARD_TYPES, InvalidHandError, card_name, rank_of, sort_key, suit_of
from solver.classify import meld_problems, readings
from solver.deadline import Deadline, DeadlineExceeded
from solver.engines.base import PlacedMeld
from solver.geometry import GEOMETRY
from solver.melds import Candidate, Extension, TableSpot, layoffs_led_by, set_wild_suits
from solver.objective import plain_pass
from solver.results import Meld
from solver.rules import (
    MAX_SET_CARDS,
    Deal,
    Rules,
    base_points,
    melded_points,
    refusal_by_knob,
)
from solver.session import Session

MAX_TABLE_MELDS = 50
MAX_RUN_MELD_CARDS = 14
"""The most cards a run on the table may hold."""
MAX_MELD_CARDS = max(MAX_RUN_MELD_CARDS, MAX_SET_CARDS)
"""The most cards any table meld may hold under any rules: a set under the largest
``max_set_size`` (the deal's own limit is ``meld_cards_limit``)."""


def meld_cards_limit(rules: Rules) -> int:
    """The most cards a table meld may hold under ``rules``: a run's or a set's, the larger."""
    return max(MAX_RUN_MELD_CARDS, rules.set_size_limit)

Cost = tuple[int, int]
"""What the search minimises: (primary points, unmelded cards).  The primary
is the deadwood (``min_deadwood``) or minus the net (``max_net``); among equal
points, fewer cards left in hand wins."""


# ---------------------------------------------------------------------------
# Input helpers shared by the play functions


def objective_of(rules: Rules, what: str = "laying off") -> str:
    """``min_deadwood`` or ``max_net``; the Indian objectives have no laying
    off, whether the preset's (``unknown_variant`` on ``variant``, as the
    API's list of presets for the operation said) or a house rule's
    (``invalid_rules`` on ``rules.objective``): the knob decides, not the
    preset's name (``rules.refusal_by_knob``)."""
    if rules.objective in ("min_deadwood", "max_net"):
        return rules.objective
    raise refusal_by_knob(
        rules, "objective",
        f"variant {rules.name!r} has no {what}: an Indian hand is shown complete "
        "(use basic, gin, rummy500, rommy, contract or kalooki, or set the knob objective to "
        "min_deadwood or max_net)",
        f"an Indian objective has no {what}, its hand is shown complete (min_deadwood and "
        "max_net have it)",
        variant_code="unknown_variant")


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
    limit = meld_cards_limit(deal.rules)
    if len(cards) > limit:
        raise InvalidHandError(
            f"{field} has {len(cards)} cards; a meld has at most {limit} under these rules "
            f"(a run {MAX_RUN_MELD_CARDS}, a set {deal.rules.set_size_limit})",
            code="invalid_table_meld", field=field,
        )
    chosen = _table_reading(tuple(cards), deal)
    if chosen is None:
        problems = meld_problems(cards, deal)
        why = problems[0][1] if problems else "it cannot be read as a set or a run"
        if readings(cards, deal):
            why = ("a run only in another order, where its wild cards could stand in more "
                   "than one place: give a run's cards in meld order, low to high, each wild "
                   "card where it stands")
        raise InvalidHandError(
            f"{field} ({names}) is not a meld: {why}", code="invalid_table_meld", field=field,
        )
    return TableMeld.from_meld(index, chosen)


@functools.lru_cache(maxsize=4096)
def _table_reading(given: tuple[int, ...], deal: Deal) -> Meld | None:
    """The reading of a table meld given in meld order (None: no meld).
    Remembered: a round's history lays the same melds again at every later
    decision, and reading a long run with jokers weighs every way to place them."""
    found = readings(given, deal)
    if not found:
        return None
    chosen = next((m for m in found if m.kind == "run" and m.cards == given), None)
    if chosen is None:
        chosen = next((m for m in found if m.kind == "set"), None)
    if chosen is None:  # a run listed high to low
        chosen = next((m for m in found if m.kind == "run" and m.cards == given[::-1]), None)
    if chosen is None and len({m.represents for m in found}) == 1:
        chosen = found[0]  # a run in another order, its wild cards' places forced
    return chosen


def keeps_places(old: TableMeld, new: TableMeld) -> bool:
    """Whether ``new`` (table meld ``old`` with cards laid off, read) holds a
    run's old cards in their places, each standing for the card it stood for
    (one unbroken stretch): a joker's meaning is fixed once melded, so the
    card a joker stands for cannot be laid off beside it (the joker would
    move).  Sets and tanalas: always.

    >>> from solver.rules import make_deal, make_rules
    >>> from solver.cards import parse_cards
    >>> deal = make_deal(make_rules("rummy500"), None)
    >>> run = read_table_meld(parse_cards("5H 6H JK"), 0, deal)  # the joker is 7H
    >>> keeps_places(run, read_table_meld(parse_cards("4H 5H 6H JK"), 0, deal))
    True
    >>> keeps_places(run, read_table_meld(parse_cards("5H 6H 7H JK"), 0, deal))  # moved to 8H
    False
    """
    if old.kind != "run":
        return True
    before = old.meld.cards, old.meld.represents
    n = len(before[0])
    return any((new.meld.cards[start:start + n], new.meld.represents[start:start + n]) == before
               for start in range(len(new.meld.cards) - n + 1))


def check_table_size(table: Sized) -> None:
    """Refuse a table of more than ``MAX_TABLE_MELDS`` melds (``table_too_large``)."""
    if len(table) > MAX_TABLE_MELDS:
        raise InvalidHandError(
            f"table has {len(table)} melds; at most {MAX_TABLE_MELDS} are allowed",
            code="table_too_large", field="table",
        )


def read_table(table: Sequence[Sequence[int]], deal: Deal) -> list[TableMeld]:
    """Read every table meld; at most ``MAX_TABLE_MELDS``."""
    check_table_size(table)
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
    onto ``table_meld``, wild cards filled in every distinct way.

    Derived from the engine's own generator (``layoffs_led_by``, one entry per
    lowest natural card) plus wild cards laid off alone, so the listing and
    the search never disagree about what fits."""
    spot = table_spot(table_meld, deal)
    out: list[Layoff] = []
    wild_cap = sum(counts[w] for w in deal.wild)
    for lead in range(JOKER):
        if not counts[lead]:
            continue
        for ext in layoffs_led_by(lead, counts, deal, [spot], wild_cap):
            left = list(counts)
            for card in ext.naturals:
                left[card] -= 1
            for filling in wild_fillings(ext.wilds, left, deal):
                out.append(_layoff_of(table_meld, ext, filling, deal))
    out.extend(_lone_wild_layoffs(table_meld, spot, counts, deal))
    return out


def _lone_wild_layoffs(tm: TableMeld, spot: TableSpot, counts: Sequence[int],
                       deal: Deal) -> list[Layoff]:
    """Wild cards laid off with no natural card: a set's missing suits, or a
    run's ends (``low`` below and ``high`` above), every distinct filling."""
    room = spot.absorb_room(deal.rules)
    out: list[Layoff] = []
    if tm.kind == "set":
        for size in range(1, room + 1):
            for filling in wild_fillings(size, counts, deal):
                layoff = _wilds_onto_set(tm, list(filling), deal)
                if layoff is not None:
                    out.append(layoff)
        return out
    if tm.kind != "run":
        return out
    lowest, highest = GEOMETRY[deal.rules.ace].span(tm.low, tm.high)
    for low in range(0, tm.low - lowest + 1):
        for high in range(0, highest - tm.high + 1):
            size = low + high
            if not 1 <= size <= room:
                continue
            for filling in wild_fillings(size, counts, deal):
                wilds = list(filling)
                low_placed = [(w, tm.low - 1 - i) for i, w in enumerate(wilds[:low])]
                high_placed = [(w, tm.high + 1 + i) for i, w in enumerate(wilds[low:])]
                out.append(_run_layoff(tm, low_placed, high_placed, deal))
    return out


def _wilds_onto_set(tm: TableMeld, wilds: list[int], deal: Deal) -> Layoff | None:
    """Wild cards standing for more suits of table set ``tm``."""
    natural = [c for c, r in zip(tm.meld.cards, tm.meld.represents, strict=True) if c == r]
    substitutes = [c for c, r in zip(tm.meld.cards, tm.meld.represents, strict=True) if c != r]
    extended = _set_meld(natural, [*substitutes, *wilds], deal)
    if extended is None:
        return None
    taken = list(substitutes)
    meanings = []
    for c, r in zip(extended.cards, extended.represents, strict=True):
        if c in deal.wild and c != r:
            if c in taken:
                taken.remove(c)
            else:
                meanings.append((c, r))
    if len(meanings) != len(wilds):
        return None  # a wild-rank card completing its own set is the natural case
    points = sum(melded_points(c, r, deal, False) for c, r in meanings)
    return Layoff(tm.index, tuple(c for c, _ in meanings), tuple(r for _, r in meanings), 0,
                  points, extended)


def _set_meld(natural: list[int], substitutes: list[int], deal: Deal) -> Meld | None:
    """A set of ``natural`` cards (one rank) plus wild ``substitutes`` filling
    the missing suits in S H D C order, or None when it breaks the set rules."""
    rules = deal.rules
    rank = rank_of(natural[0])
    suits = [suit_of(c) for c in natural]
    if not rules.set_allow_same_suit and len(set(suits)) < len(suits):
        return None
    if len(natural) + len(substitutes) > rules.set_size_limit:
        return None
    wild_suits = set_wild_suits(suits, len(substitutes))
    pairs = [(c, c) for c in natural]
    pairs += [(w, rank + 13 * s) for w, s in zip(sorted(substitutes), wild_suits, strict=True)]
    pairs.sort(key=lambda pair: (suit_of(pair[1]), pair[0]))
    cards = tuple(c for c, _ in pairs)
    represents = tuple(r for _, r in pairs)
    points = sum(melded_points(c, r, deal, False) for c, r in pairs)
    return Meld("set", cards, represents, False, points)


def _run_layoff(
    tm: TableMeld,
    low_placed: list[tuple[int, int]],
    high_placed: list[tuple[int, int]],
    deal: Deal,
) -> Layoff:
    meld = tm.meld
    new_low = low_placed[-1][1] if low_placed else tm.low
    geometry = GEOMETRY[deal.rules.ace]

    def stands_for(q: int) -> int:
        return tm.suit_base + q % 13

    def is_low_ace(q: int) -> bool:
        return q == new_low and geometry.low_ace_at_bottom(q)

    laid = [*low_placed, *high_placed]
    cards = tuple(c for c, _ in laid)
    represents = tuple(stands_for(q) for _, q in laid)
    points = sum(melded_points(c, stands_for(q), deal, is_low_ace(q)) for c, q in laid)
    ordered = [*reversed(low_placed),
               *((c, tm.low + i) for i, c in enumerate(meld.cards)),
               *high_placed]
    extended = Meld(
        "run",
        tuple(c for c, _ in ordered),
        tuple(stands_for(q) for _, q in ordered),
        meld.pure and all(c == stands_for(q) for c, q in laid),
        sum(melded_points(c, stands_for(q), deal, is_low_ace(q)) for c, q in ordered),
    )
    return Layoff(tm.index, cards, represents, len(low_placed), points, extended)


# ---------------------------------------------------------------------------
# New melds placed by hand (with a chosen filling of their wild slots)


def wild_fillings(wilds: int, counts: Sequence[int], deal: Deal,
                  limit: int | None = None) -> list[tuple[int, ...]]:
    """Distinct multisets of ``wilds`` wild cards available in ``counts``
    (the first ``limit`` of them, in card order, when given)."""
    types = _wild_types(counts, deal)
    combos = (combo for combo in combinations_with_replacement(types, wilds)
              if all(combo.count(t) <= counts[t] for t in set(combo)))
    return list(islice(combos, limit))


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
    each cached by (cards, table melds skipped).  Every search stops at
    ``deadline``: past it the best play found is answered, ``optimal=False``.
    """

    def __init__(self, deal: Deal, table: Sequence[TableMeld], deadline: Deadline) -> None:
        self.deal = deal
        self.objective = objective_of(deal.rules)
        self.pass_ = plain_pass(deal)
        self.melds_allowed = deal.rules.new_melds_after_opening
        self.table = list(table)
        self.deadline = deadline
        self.session = Session(deal, deadline, "search")
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
        try:
            found, proved = self.session.with_table(
                hand, [table_spot(tm, self.deal) for tm in table], self.pass_,
                melds_allowed=self.melds_allowed)
        except DeadlineExceeded:
            # Out of time before any arrangement was seen: keep every card.
            play = combine(self.deal, (), (), hand, False)
            return (play.cost(self.objective), play)
        layoffs = [_layoff_of(by_index[ext.table_index], ext, wilds, self.deal)
                   for ext, wilds in found.layoffs]
        lone: dict[int, list[int]] = {}
        for index, card in found.lone_wilds:
            lone.setdefault(index, []).append(card)
        layoffs += [_lone_wild_layoff(by_index[index], wilds, self.deal)
                    for index, wilds in lone.items()]
        melds = [build_meld(placed, self.deal) for placed in found.melds]
        play = combine(self.deal, melds, layoffs, found.deadwood, proved)
        answer = (play.cost(self.objective), play)
        if proved:
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


def _layoff_of(tm: TableMeld, ext: Extension, wilds: Sequence[int], deal: Deal) -> Layoff:
    """The ``Layoff`` of an engine extension with its wild slots filled."""
    fill = iter(wilds)
    if tm.kind == "set":
        natural = [c for c, r in zip(tm.meld.cards, tm.meld.represents, strict=True) if c == r]
        substitutes = [c for c, r in zip(tm.meld.cards, tm.meld.represents, strict=True) if c != r]
        added = list(ext.naturals)
        extended = _set_meld([*natural, *added], [*substitutes, *wilds], deal)
        assert extended is not None
        laid = [(c, c) for c in added] + [(w, r) for w, r in zip(
            wilds, ext.represents[len(added):], strict=True)]
        return Layoff(tm.index, tuple(c for c, _ in laid), tuple(r for _, r in laid), 0,
                      sum(melded_points(c, r, deal, False) for c, r in laid), extended)
    placed = [(rep if natural else next(fill), q)
              for q, rep, natural in zip(ext.coords, ext.represents, ext.natural_at, strict=True)]
    low_placed = [pair for pair in reversed(placed) if pair[1] < tm.low]
    high_placed = [pair for pair in placed if pair[1] > tm.high]
    return _run_layoff(tm, low_placed, high_placed, deal)


def _lone_wild_layoff(tm: TableMeld, wilds: list[int], deal: Deal) -> Layoff:
    """Wild cards laid off alone: a set's missing suits, or a run's ends (the
    ends worth most, ``TableSpot.lone_wild_coords``; else the high end first)."""
    if tm.kind == "set":
        layoff = _wilds_onto_set(tm, wilds, deal)
        assert layoff is not None
        return layoff
    slots = table_spot(tm, deal).lone_wild_coords(deal, len(wilds))
    high_placed = [(w, q) for w, q in zip(wilds, slots, strict=False) if q > tm.high]
    low_placed = [(w, q) for w, q in zip(wilds, slots, strict=False) if q < tm.low]
    return _run_layoff(tm, low_placed, high_placed, deal)


def count_cards(cards: Iterable[int]) -> list[int]:
    """Copies of each card type (53 entries)."""
    counts = [0] * NUM_CARD_TYPES
    for card in cards:
        counts[card] += 1
    return counts
