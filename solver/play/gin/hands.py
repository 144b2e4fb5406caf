"""Gin hands as 52-bit masks, valued in microseconds: the advisor's inner loop.

A hand is an int with bit ``card`` set for each card it holds (``card`` =
``suit * 13 + rank``, as everywhere in the library).  Its least deadwood
comes from the exact table method of the engines (sets chosen by
enumeration, runs from per-suit 13-bit tables: ``solver.engines.bitmask``),
so every value here is exact, for the deal's rules (ace low, no wild card,
the gin point values).

>>> from solver.rules import make_deal, make_rules
>>> hands = GinHands(make_deal(make_rules("gin")))
>>> hand = mask_of([0, 1, 2, 19, 32, 45, 38, 24, 42, 8])  # AS 2S 3S 7H 7D 7C KD QH 4C 9S
>>> hands.deadwood(hand)
33
>>> hands.best_discard(hand | 1 << 3)  # and 4S: A-4S and the 7s; KD (or QH) goes
(23, 38)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from solver.engines import bitmask
from solver.objective import TIE_SCALE
from solver.rules import Deal

SUIT = (1 << 13) - 1
FULL = (1 << 52) - 1
THROWS_REMEMBERED = 100_000
"""Hands whose best throw is remembered (then all are forgotten): one
standard-level decision values a few thousand; about 17 MB at most."""
KNOCKS_REMEMBERED = 50_000
"""Knocking hands whose melds are remembered (then all are forgotten): a
knock now is scored against every deal's opponent, and a playout's knocking
hands recur across deals (about four times each in a review)."""


def _set_choices(held: int) -> tuple[int, ...]:
    """The sets a rank held in the suits of ``held`` (4 bits) can make, as
    masks of the suits they take: all of them, and with four suits each
    three of them."""
    suits_held = [1 << i for i in range(4) if held >> i & 1]
    if len(suits_held) < 3:
        return ()
    if len(suits_held) == 3:
        return (held,)
    return (held, *(held & ~suit for suit in suits_held))


_SET_CHOICES = tuple(_set_choices(held) for held in range(16))


def _partners(card: int) -> int:
    """The mask of the cards ``card`` could share a meld with: the other
    suits' cards of its rank and the cards a rank above and below in its
    suit (the ace next to the king as well, for the rules where it may be)."""
    rank, suit = card % 13, card // 13
    same_rank = sum(1 << (other * 13 + rank) for other in range(4) if other != suit)
    return same_rank | 1 << (suit * 13 + (rank + 1) % 13) | 1 << (suit * 13 + (rank - 1) % 13)


_PARTNERS = tuple(_partners(card) for card in range(52))


def mask_of(cards: Iterable[int]) -> int:
    """The mask of ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> Iterator[int]:
    """The cards of ``mask``, lowest id first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def suits(mask: int) -> tuple[int, int, int, int]:
    """The four 13-bit rank masks of a hand (spades, hearts, diamonds, clubs)."""
    return mask & SUIT, mask >> 13 & SUIT, mask >> 26 & SUIT, mask >> 39 & SUIT


class GinHands:
    """Exact least deadwood of masks under one deal (cached per hand)."""

    def __init__(self, deal: Deal) -> None:
        if not bitmask.rules_allow(deal) or deal.rules.objective != "min_deadwood":
            raise ValueError(f"variant {deal.rules.name!r} is not a one-deck deadwood game "
                             "without wild cards")
        self.deal = deal
        self.tables = bitmask.suit_tables(deal)
        if any(self.tables.meld_cost):
            raise ValueError("melded cards must cost nothing (least deadwood)")
        self.points = tuple(deal.points[c] for c in range(52))
        self._by_points = tuple((value, mask_of(c for c in range(52) if self.points[c] == value))
                                for value in sorted(set(self.points), reverse=True))
        """The cards of each point value, dearest first."""
        self._runs = [split[0] for split in self.tables.best]
        self._minus_one = self.tables.minus_one
        self._cost: dict[int, int] = {}
        self._throw: dict[int, tuple[int, int]] = {}
        self._throw_rank = tuple((63 - self.points[card]) << 6 | card for card in range(52))
        """Each card's order among throws of equal cost: dearer first, then by id."""
        self._knocks: dict[int, KnockShape] = {}

    def cost(self, mask: int) -> int:
        """The table cost of keeping ``mask`` (deadwood points scaled, plus one
        per unmelded card, so fewer loose cards win ties): the best choice of
        sets, each suit's rest split into runs by its table."""
        cost = self._cost.get(mask)
        if cost is None:
            if len(self._cost) > 300_000:
                self._cost.clear()
            s, h, d, c = mask & SUIT, mask >> 13 & SUIT, mask >> 26 & SUIT, mask >> 39 & SUIT
            set_ranks = (s & h & (d | c)) | (d & c & (s | h))
            runs = self._runs
            if not set_ranks:
                cost = runs[s] + runs[h] + runs[d] + runs[c]
            else:
                cost = self._with_sets(s, h, d, c, set_ranks)
            self._cost[mask] = cost
        return cost

    def _with_sets(self, s: int, h: int, d: int, c: int, set_ranks: int) -> int:
        """The least cost over every choice of sets at the ranks of ``set_ranks``."""
        bit = set_ranks & -set_ranks
        rest = set_ranks ^ bit
        runs = self._runs
        best = self._with_sets(s, h, d, c, rest) if rest else \
            runs[s] + runs[h] + runs[d] + runs[c]
        held = (1 if s & bit else 0) | (2 if h & bit else 0) | (4 if d & bit else 0) \
            | (8 if c & bit else 0)
        keep = ~bit
        for option in _SET_CHOICES[held]:
            s2 = s & keep if option & 1 else s
            h2 = h & keep if option & 2 else h
            d2 = d & keep if option & 4 else d
            c2 = c & keep if option & 8 else c
            cost = self._with_sets(s2, h2, d2, c2, rest) if rest else \
                runs[s2] + runs[h2] + runs[d2] + runs[c2]
            if cost < best:
                best = cost
        return best

    def discard_cost(self, mask: int, keep: int = -1) -> tuple[int, int]:
        """``(cost, card)``: the least cost after throwing one card of
        ``mask`` (not ``keep``), the higher card among equal costs in
        different suits; remembered per hand (the advisor's plays meet the
        same hands again and again)."""
        key = mask << 6 | (keep + 1)
        known = self._throw.get(key)
        if known is None:
            if len(self._throw) > THROWS_REMEMBERED:
                self._throw.clear()
            known = self._throw[key] = self._discard_cost(mask, keep)
        return known

    def _discard_cost(self, mask: int, keep: int) -> tuple[int, int]:
        """``discard_cost`` worked out.  With the sets fixed, the suits' rests
        are split into runs apart, so a throw changes one suit only and the
        per-suit tables value it at once.  Without three of a rank the table
        of each suit's best throw answers (a ``keep`` it picks falls back to
        trying the cards one by one); with sets, the tables give the least
        throw over every choice of sets (none at a rank included, so a set's
        card is thrown too), and of the cards that throw it the dearest goes."""
        runs, rank, minus_one = self._runs, self._throw_rank, self._minus_one
        rests = self._rests(mask)
        best = -1  # (cost, dearer first, card) packed in one int
        if len(rests) == 1:
            s, h, d, c = rests[0]
            total = runs[s] + runs[h] + runs[d] + runs[c]
            for base, suit in ((0, s), (13, h), (26, d), (39, c)):
                if suit:
                    after, bit = minus_one[suit]
                    key = (total - runs[suit] + after) << 12 | rank[base + bit]
                    if best < 0 or key < best:
                        best = key
            if best & 63 == keep:
                return self._discard_cost_by_card(mask, keep)
            return best >> 12, best & 63
        least = -1
        throws = []  # (cost of the other suits, suit, base, least cost throwing from it)
        for s, h, d, c in rests:
            total = runs[s] + runs[h] + runs[d] + runs[c]
            for base, suit in ((0, s), (13, h), (26, d), (39, c)):
                if suit:
                    others = total - runs[suit]
                    cost = others + minus_one[suit][0]
                    throws.append((others, suit, base, cost))
                    if least < 0 or cost < least:
                        least = cost
        for others, suit, base, cost in throws:
            if cost == least:
                bits = suit
                while bits:
                    low = bits & -bits
                    bits ^= low
                    card = base + low.bit_length() - 1
                    if card != keep and others + runs[suit ^ low] == least \
                            and (best < 0 or rank[card] < best):
                        best = rank[card]
        if best < 0:  # only ``keep`` throws the least
            return self._discard_cost_by_card(mask, keep)
        return least, best & 63

    def _rests(self, mask: int) -> list[tuple[int, int, int, int]]:
        """The four suits' cards left out of sets, for every choice of sets
        (none at a rank included)."""
        rests = [(mask & SUIT, mask >> 13 & SUIT, mask >> 26 & SUIT, mask >> 39 & SUIT)]
        s, h, d, c = rests[0]
        set_ranks = (s & h & (d | c)) | (d & c & (s | h))
        while set_ranks:
            bit = set_ranks & -set_ranks
            set_ranks ^= bit
            held = (1 if s & bit else 0) | (2 if h & bit else 0) | (4 if d & bit else 0) \
                | (8 if c & bit else 0)
            without = ~bit
            rests += [(s2 & without if option & 1 else s2, h2 & without if option & 2 else h2,
                       d2 & without if option & 4 else d2, c2 & without if option & 8 else c2)
                      for s2, h2, d2, c2 in rests for option in _SET_CHOICES[held]]
        return rests

    def _discard_cost_by_card(self, mask: int, keep: int) -> tuple[int, int]:
        """``discard_cost`` by trying the cards dearest first: throwing a card
        lowers the cost by at most its own points (and one loose card), so
        once a throw is found, a card whose points cannot beat it is not tried."""
        whole = self.cost(mask)
        found, out = -1, -1
        for value, group in self._by_points:
            if not mask & group:
                continue
            if out >= 0 and whole - value * TIE_SCALE - 1 > found:
                break  # later cards are no dearer: none can beat it
            for card in cards_of(mask & group):
                if card == keep:
                    continue
                cost = self.cost(mask & ~(1 << card))
                if out < 0 or cost < found:
                    found, out = cost, card
        return found, out

    def melds_with(self, hand: int, card: int) -> bool:
        """Whether ``card`` goes into a meld of ``hand`` plus it (the hand with
        it costs less than with it loose); a card with no card of its rank
        and no suit neighbour in ``hand`` does not, without valuing the hand."""
        if not hand & _PARTNERS[card]:
            return False
        return self.cost(hand | 1 << card) < self.cost(hand) + self.points[card] * TIE_SCALE + 1

    def knock_shape(self, mask: int) -> KnockShape:
        """``mask``'s best arrangement (``arrangement``) and the cards a
        defender could lay off on its melds (``layoff_reach``), remembered
        per hand."""
        shape = self._knocks.get(mask)
        if shape is None:
            if len(self._knocks) > KNOCKS_REMEMBERED:
                self._knocks.clear()
            best = arrangement(self, mask)
            shape = self._knocks[mask] = KnockShape((best, layoff_reach(best.melds)))
        return shape

    def deadwood(self, mask: int) -> int:
        """The least deadwood points of ``mask``."""
        return self.cost(mask) // TIE_SCALE

    def loose(self, mask: int) -> int:
        """Cards left unmelded by ``mask``'s best arrangement."""
        return self.cost(mask) % TIE_SCALE

    def discard_costs(self, mask: int, keep: int = 0) -> list[tuple[int, int]]:
        """``(cost, card)`` of keeping ``mask`` less each card, every card but
        those in ``keep`` (a card taken this turn may not go back)."""
        return [(self.cost(mask & ~(1 << card)), card) for card in cards_of(mask & ~keep)]

    def best_discard(self, mask: int, keep: int = 0) -> tuple[int, int]:
        """``(deadwood, card)``: the least deadwood after one discard (the
        highest card among equal costs: it would cost most if kept)."""
        cost, card = min(self.discard_costs(mask, keep),
                         key=lambda item: (item[0], -self.points[item[1]], -item[1]))
        return cost // TIE_SCALE, card


class Arrangement(tuple[int, tuple[int, ...]]):
    """``(deadwood points, meld masks)`` of a hand's best arrangement."""

    __slots__ = ()

    @property
    def deadwood(self) -> int:
        """Deadwood points."""
        return self[0]

    @property
    def melds(self) -> tuple[int, ...]:
        """Each meld as a mask."""
        return self[1]


def arrangement(hands: GinHands, mask: int) -> Arrangement:
    """The best arrangement of ``mask`` (no discard): its deadwood and melds."""
    split = bitmask.best_split(hands.tables, suits(mask), False)
    cost, sets, remaining, _ = split
    melds: list[int] = []
    for rank, *set_suits in sets:
        melds.append(mask_of(s * 13 + rank for s in set_suits))
    best = hands.tables.best
    for suit, suit_mask in enumerate(remaining):
        for low, top, ace_high in best[suit_mask][1]:
            ranks = [*range(low, top + 1), 0] if ace_high else range(low, top + 1)
            melds.append(mask_of(suit * 13 + r for r in ranks))
    return Arrangement((cost // TIE_SCALE, tuple(melds)))


def layoff_starts(meld: int) -> tuple[tuple[int, int], ...]:
    """Where a defender may lay cards off on ``meld``, as ``(card, step)``:
    the card past each end of a run (in its suit, the ace low) with the step a
    chain of layoffs goes on by (-1 down, +1 up), and a set of three's missing
    fourth card (step 0: nothing follows it).

    >>> layoff_starts(mask_of([14, 15, 16])), layoff_starts(mask_of([8, 34, 47]))  # 2-4H; 9S 9D 9C
    (((13, -1), (17, 1)), ((21, 0),))
    """
    low = (meld & -meld).bit_length() - 1
    suit, rank = divmod(low, 13)
    if not meld & ~(SUIT << (suit * 13)):  # a run
        top = meld.bit_length() - 1 - suit * 13
        return tuple((suit * 13 + end, step) for end, step in ((rank - 1, -1), (top + 1, 1))
                     if 0 <= end < 13)
    missing = [s * 13 + rank for s in range(4) if not meld >> (s * 13 + rank) & 1]
    return ((missing[0], 0),) if len(missing) == 1 else ()


def layoff_reach(melds: Iterable[int]) -> int:
    """The cards a defender could lay off on ``melds`` first (``layoff_starts``):
    a hand holding none of them lays nothing off.

    >>> [*cards_of(layoff_reach([mask_of([14, 15, 16]), mask_of([8, 34, 47])]))]
    [13, 17, 21]
    """
    reach = 0
    for meld in melds:
        for card, _ in layoff_starts(meld):
            reach |= 1 << card
    return reach


class KnockShape(tuple[Arrangement, int]):
    """``(arrangement, layoff reach)`` of a knocking hand (``GinHands.knock_shape``)."""

    __slots__ = ()

    @property
    def arrangement(self) -> Arrangement:
        """The hand's best arrangement: its deadwood and melds."""
        return self[0]

    @property
    def reach(self) -> int:
        """The cards a defender could lay off on its melds (``layoff_reach``)."""
        return self[1]
