"""Indian rummy melds, shows and counts, written again for the referee: no ``solver`` import.

Cards are the arena's ints (``suit * 13 + rank``, rank 0 = ace) and 52 for a
printed joker.  A deal's ``wild`` set holds the printed joker and every card
of the cut rank (``indian21``: and the cut card's lower and upper jokers,
``deal_wild``); a wild card other than the printed joker may also stand for
itself.

* ``read_meld(cards, wild, tanala)`` -- how a group reads at best: a pure
  sequence (a run with no card standing in for another, or with ``tanala``
  three identical cards), a sequence (a run with stand-ins), a set (3-4
  cards of one rank in distinct suits, stand-ins filling missing suits), or
  not a meld.  Every meld holds at least one card standing for itself; a
  run has at most one ace, A-2-3 and Q-K-A both valid, K-A-2 not.
* ``show_problem(groups, hand, wild, ...)`` -- why a declaration is not a
  valid show (None when it is): every card melded, at least ``min_pure``
  pure sequences and ``min_sequences`` sequences (13 cards: two sequences,
  one of them pure; 21 cards: three pure sequences).
* ``least_count(cards, wild, cap)`` -- the 13-card count a loser pays, the
  least over every arrangement of its cards: with two sequences (one pure)
  only the unmelded cards count; with a pure sequence alone every card but
  that sequence's; else every card; capped.
* ``marriage_count(cards, wild)`` -- the 21-card count (docs/RULES.md 4.5):
  with three pure sequences (tanalas count) only the unmelded cards count;
  else every card but the wild cards and at most two pure sequences (or
  tanalas); the least of both; no cap.
* ``value_points(cards, valued, ...)`` -- the value cards a player holds
  (``indian21``): each copy of the cut card and its lower and upper jokers
  10, each complete triple of them (a marriage) 100 instead of its three
  cards.

>>> wild = wild_cards(6)  # 7s are wild
>>> read_meld([19, 20, 21], wild)  # 7H 8H 9H: the 7 stands for itself
'pure'
>>> read_meld([52, 20, 21], wild), read_meld([0, 13, 52], wild), read_meld([12, 0, 1], wild)
('sequence', 'set', None)
>>> sorted(deal_wild(13, neighbours=True)) == [0, 13, 14, 25, 26, 39, 52]  # cut AH: KH, 2H
True
>>> read_meld([9, 9, 9], wild, tanala=True), read_meld([9, 9, 9], wild)
('pure', None)"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement

from benchmarks.arena.core.joker_cards import JOKER, RANKS, SUITS


def wild_cards(cut_rank: int | None) -> frozenset[int]:
    """The wild cards of a deal: the printed joker and the cut rank in every suit."""
    wild = {JOKER}
    if cut_rank is not None:
        wild.update(s * RANKS + cut_rank for s in range(SUITS))
    return frozenset(wild)


def deal_wild(cut_card: int, neighbours: bool = False) -> frozenset[int]:
    """The wild cards of a deal whose cut card is ``cut_card``: the printed
    joker, and unless a printed joker was cut, the cut rank in every suit and
    with ``neighbours`` the cut card's lower and upper jokers (its suit, one
    rank below and above, round the corner: a cut ace's are the K and the 2)."""
    if cut_card == JOKER:
        return wild_cards(None)
    wild = set(wild_cards(cut_card % RANKS))
    if neighbours:
        wild.update(value_cards(cut_card))
    return frozenset(wild)


def value_cards(cut_card: int) -> tuple[int, ...]:
    """The cut card's lower joker, the cut card and its upper joker (one
    suit); none when a printed joker was cut."""
    if cut_card == JOKER:
        return ()
    suit, rank = divmod(cut_card, RANKS)
    return (suit * RANKS + (rank - 1) % RANKS, cut_card, suit * RANKS + (rank + 1) % RANKS)


def value_points(cards: Sequence[int], valued: Sequence[int], card_points: int = 10,
                 marriage_points: int = 100) -> int:
    """What the value cards among ``cards`` are worth: each complete triple
    of the three ``valued`` cards (a marriage) ``marriage_points``, every
    other copy ``card_points``."""
    if not valued:
        return 0
    copies = [list(cards).count(c) for c in valued]
    marriages = min(copies)
    return marriages * marriage_points + (sum(copies) - 3 * marriages) * card_points


def points(card: int, wild: frozenset[int]) -> int:
    """A card's count: 0 for a wild card, ace and court cards 10, else its number."""
    if card in wild:
        return 0
    rank = card % RANKS
    return 10 if rank == 0 or rank >= 9 else rank + 1


def _run_fits(naturals: Sequence[int], stand_ins: int) -> bool:
    """Whether cards standing for themselves (``naturals``, one suit) and
    ``stand_ins`` wild cards make one run."""
    if not naturals:
        return False
    suits = {c // RANKS for c in naturals}
    if len(suits) != 1:
        return False
    ranks = sorted(c % RANKS for c in naturals)
    if len(set(ranks)) != len(ranks):
        return False
    length = len(naturals) + stand_ins
    if length < 3 or length > RANKS:
        return False
    for high_ace in (False, True):
        if high_ace and ranks[0] != 0:
            continue
        positions = sorted(13 if (high_ace and r == 0) else r for r in ranks)
        # a window of ``length`` positions in 0 (ace low) .. 13 (ace high),
        # never both aces, holding every natural card
        for low in range(max(0, positions[-1] - length + 1), positions[0] + 1):
            high = low + length - 1
            if high <= 13 and not (low == 0 and high == 13):
                return True
    return False


def _set_fits(naturals: Sequence[int], stand_ins: int) -> bool:
    if not naturals:
        return False
    if len({c % RANKS for c in naturals}) != 1:
        return False
    suits = [c // RANKS for c in naturals]
    if len(set(suits)) != len(suits):
        return False
    return 3 <= len(naturals) + stand_ins <= 4


def read_meld(cards: Sequence[int], wild: frozenset[int], tanala: bool = False) -> str | None:
    """``'pure'``, ``'sequence'``, ``'set'`` or None (see the module docstring);
    with ``tanala`` three identical cards (never printed jokers) read ``'pure'``."""
    cards = list(cards)
    if len(cards) < 3:
        return None
    if tanala and len(cards) == 3 and cards[0] != JOKER and cards.count(cards[0]) == 3:
        return "pure"
    wilds = [c for c in cards if c in wild]
    plain = [c for c in cards if c not in wild]
    # a wild card of the cut rank may stand for itself; a printed joker never
    selfish = [c for c in wilds if c != JOKER]
    best: str | None = None
    for k in range(len(selfish) + 1):
        for as_self in combinations(selfish, k):
            naturals = plain + list(as_self)
            stand_ins = len(cards) - len(naturals)
            if _run_fits(naturals, stand_ins):
                if stand_ins == 0:
                    return "pure"
                best = "sequence"
            elif best is None and _set_fits(naturals, stand_ins):
                best = "set"
    return best


def show_problem(groups: Sequence[Sequence[int]], hand: Sequence[int],
                 wild: frozenset[int], *, tanala: bool = False, min_pure: int = 1,
                 min_sequences: int = 2) -> str | None:
    """Why ``groups`` are not a valid show of ``hand`` (None: valid): every
    card in exactly one meld, ``min_pure`` pure sequences and
    ``min_sequences`` sequences (the defaults are ``indian13``'s)."""
    shown = sorted(c for g in groups for c in g)
    if shown != sorted(hand):
        return "the groups do not hold exactly the cards kept"
    readings = [read_meld(g, wild, tanala) for g in groups]
    if any(r is None for r in readings):
        return "a group is not a meld"
    pure = sum(r == "pure" for r in readings)
    sequences = sum(r in ("pure", "sequence") for r in readings)
    if pure < min_pure:
        return "no pure sequence" if min_pure == 1 else f"fewer than {min_pure} pure sequences"
    if sequences < min_sequences:
        return "fewer than two sequences" if min_sequences == 2 else \
            f"fewer than {min_sequences} sequences"
    return None


def least_count(cards: Sequence[int], wild: frozenset[int], cap: int | None = 80) -> int:
    """The count a loser pays with ``cards`` (see the module docstring)."""
    order = sorted(cards, key=lambda c: (c == JOKER, c in wild, c))
    count = _least(tuple(order), wild)
    return count if cap is None else min(count, cap)


@functools.lru_cache(maxsize=4096)
def _least(cards: tuple[int, ...], wild: frozenset[int]) -> int:
    total = sum(points(c, wild) for c in cards)
    best = [total]

    def leaf(melds: list[tuple[str, int]], loose: int) -> None:
        pure = [p for kind, p in melds if kind == "pure"]
        sequences = sum(kind in ("pure", "sequence") for kind, _ in melds)
        if pure and sequences >= 2:
            best[0] = min(best[0], loose)
        elif pure:
            best[0] = min(best[0], total - max(pure))

    def visit(rest: tuple[int, ...], melds: list[tuple[str, int]], loose: int) -> None:
        if best[0] == 0:
            return
        if not rest:
            leaf(melds, loose)
            return
        first, others = rest[0], rest[1:]
        if first != JOKER:
            # groups holding ``first`` as a card standing for itself
            fits = [i for i, c in enumerate(others) if c in wild or
                    c // RANKS == first // RANKS or c % RANKS == first % RANKS]
            for size in range(2, min(len(fits), 12) + 1):
                for chosen in combinations(fits, size):
                    group = [first, *(others[i] for i in chosen)]
                    kind = read_meld(group, wild)
                    if kind is None:
                        continue
                    left = tuple(c for i, c in enumerate(others) if i not in chosen)
                    melds.append((kind, sum(points(c, wild) for c in group)))
                    visit(left, melds, loose)
                    melds.pop()
        visit(others, melds, loose + points(first, wild))

    visit(cards, [], 0)
    return best[0]


# -- the 21-card count (docs/RULES.md 4.5) -------------------------------------------------
INFINITE = 1 << 30
ACE_HIGH = RANKS
"""A run's position of an ace ending it high (Q-K-A); position 0 is the low ace."""
MAX_COUNTED_RUN = 5
"""For a count no run need be longer: a run of six or more splits into two
of three or more (pure halves stay pure; a half of stand-ins alone is left
loose, costing nothing), so the least count is among runs of 3 to 5."""
RANK_ORDER = tuple(sorted(range(JOKER), key=lambda c: (c % RANKS, c // RANKS)))
"""The cards in the order the search takes them: by rank (ace first), then suit."""


def marriage_count(cards: Sequence[int], wild: frozenset[int], *, pure_needed: int = 3,
                   exempt: int = 2, tanala: bool = True) -> int:
    """The 21-card count of a loser holding ``cards`` (see the module
    docstring): the least of the show's count (``pure_needed`` pure
    sequences, every other meld allowed, only the unmelded cards count) and
    the lower tier's (every card but the wild cards and at most ``exempt``
    pure sequences)."""
    counts = [0] * (JOKER + 1)
    for card in cards:
        counts[card] += 1
    total = sum(points(c, wild) for c in cards)
    pures = _pure_melds(counts, tanala)
    lower = total - _best_pures(pures, counts, wild, exempt)
    if lower == 0 or _most_pures(pures, counts, pure_needed) < pure_needed:
        return lower
    return min(lower, _ShowCount(counts, wild, tanala).least(pure_needed))


def _pure_melds(counts: Sequence[int], tanala: bool) -> list[tuple[int, ...]]:
    """Every pure sequence the cards ``counts`` hold (each card standing for
    itself; a wild card of the cut rank may): runs of 3 to 13 in one suit, and
    with ``tanala`` three identical cards."""
    out: list[tuple[int, ...]] = []
    for suit in range(SUITS):
        for low in range(RANKS + 1):
            run: list[int] = []
            for position in range(low, min(low + RANKS, ACE_HIGH + 1)):
                card = suit * RANKS + position % RANKS
                if not counts[card]:
                    break
                run.append(card)
                if len(run) >= 3:
                    out.append(tuple(run))
    if tanala:
        out.extend((c, c, c) for c in range(JOKER) if counts[c] >= 3)
    return out


def _fits(melds: Sequence[tuple[int, ...]], counts: Sequence[int]) -> bool:
    used: dict[int, int] = {}
    for meld in melds:
        for card in meld:
            used[card] = used.get(card, 0) + 1
    return all(counts[c] >= n for c, n in used.items())


def _best_pures(pures: Sequence[tuple[int, ...]], counts: Sequence[int], wild: frozenset[int],
                most: int) -> int:
    """The most points ``most`` or fewer disjoint pure sequences hold."""
    valued = sorted(((sum(points(c, wild) for c in m), m) for m in pures), reverse=True)
    best = 0

    def visit(start: int, chosen: list[tuple[int, ...]], value: int) -> None:
        nonlocal best
        best = max(best, value)
        if len(chosen) == most:
            return
        for index in range(start, len(valued)):
            worth, meld = valued[index]
            if value + worth * (most - len(chosen)) <= best:
                return  # sorted by worth: nothing further can beat it
            if _fits([*chosen, meld], counts):
                chosen.append(meld)
                visit(index, chosen, value + worth)  # the same run again: another copy
                chosen.pop()

    visit(0, [], 0)
    return best


def _most_pures(pures: Sequence[tuple[int, ...]], counts: Sequence[int], enough: int) -> int:
    """How many disjoint pure sequences the cards hold (looking no further than ``enough``)."""
    shortest = sorted(pures, key=len)
    best = 0

    def visit(start: int, chosen: list[tuple[int, ...]]) -> None:
        nonlocal best
        best = max(best, len(chosen))
        if best >= enough:
            return
        for index in range(start, len(shortest)):
            meld = shortest[index]
            if _fits([*chosen, meld], counts):
                chosen.append(meld)
                visit(index, chosen)
                chosen.pop()
                if best >= enough:
                    return

    visit(0, [])
    return best


class _ShowCount:
    """The least count of a hand arranged with ``need`` pure sequences.

    Any such arrangement holds ``need`` pure sequences of three to five
    cards (a longer one splits into a pure three and a pure rest); the
    search sets each choice of them aside and arranges the rest freely
    (``_free``): depth first over the natural (not wild) cards in
    ``RANK_ORDER``, each one loose or the lowest natural card of a meld (a
    tanala, a set of three or four, a run of three to five) whose other
    places hold natural cards or wild cards standing in, memoised on the
    cards left.  Once no pure sequence is needed the wild cards are one pool:
    a wild card standing for itself in a meld that need not be pure does
    what a stand-in does."""

    def __init__(self, counts: list[int], wild: frozenset[int], tanala: bool) -> None:
        self.counts = list(counts)
        self.wild = wild
        self.tanala = tanala
        self.order = [c for c in RANK_ORDER if c not in wild]
        self.memo: dict[tuple[bytes, int], int] = {}

    def least(self, need: int) -> int:
        """The least count with ``need`` pure sequences (``INFINITE``: none)."""
        counts = self.counts
        pures = [m for m in _pure_melds(counts, self.tanala) if len(m) <= MAX_COUNTED_RUN]
        pool = sum(counts[c] for c in self.wild)
        best = INFINITE
        for chosen in combinations_with_replacement(range(len(pures)), need):
            melds = [pures[i] for i in chosen]
            if not _fits(melds, counts):
                continue
            used = [c for m in melds for c in m]
            for card in used:
                counts[card] -= 1
            best = min(best, self._free(pool - sum(c in self.wild for c in used)))
            for card in used:
                counts[card] += 1
            if best == 0:
                break
        return best

    def _free(self, pool: int) -> int:
        """The least count of the natural cards left and ``pool`` wild cards,
        no pure sequence needed."""
        counts = self.counts
        key = (bytes(counts[c] for c in self.order), pool)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        first = next((c for c in self.order if counts[c]), None)
        best = 0
        if first is not None:
            counts[first] -= 1
            best = points(first, self.wild) + self._free(pool)
            for stand_ins, others in self._melds(first, pool):
                for card in others:
                    counts[card] -= 1
                best = min(best, self._free(pool - stand_ins))
                for card in others:
                    counts[card] += 1
                if best == 0:
                    break
            counts[first] += 1
        self.memo[key] = best
        return best

    def _melds(self, first: int, pool: int) -> list[tuple[int, tuple[int, ...]]]:
        """The melds whose lowest natural card is ``first`` (already taken
        out of ``counts``), as (stand-ins, the other natural cards), each
        once (for a count a meld is its cards and its stand-ins, whatever its
        shape) and with at most ``pool`` stand-ins."""
        counts = self.counts
        suit, rank = divmod(first, RANKS)
        found: set[tuple[int, tuple[int, ...]]] = set()
        if self.tanala and counts[first] >= 2:
            found.add((0, (first, first)))
        # sets: the same rank in other suits, stand-ins to three
        others = [s * RANKS + rank for s in range(SUITS)
                  if s != suit and counts[s * RANKS + rank] and s * RANKS + rank not in self.wild]
        for size in range(len(others) + 1):
            for chosen in combinations(others, size):
                found.add((max(0, 2 - size), chosen))
        # runs of three to five in ``first``'s suit holding it
        positions = [rank] + ([ACE_HIGH] if rank == 0 else [])
        for position in positions:
            for length in range(3, MAX_COUNTED_RUN + 1):
                for low in range(max(0, position - length + 1), position + 1):
                    high = low + length - 1
                    if high > ACE_HIGH:
                        break
                    places = [suit * RANKS + p % RANKS for p in range(low, high + 1)
                              if p != position]
                    held = [c for c in places if counts[c] and c not in self.wild]
                    for size in range(len(held) + 1):
                        for chosen in combinations(held, size):
                            found.add((len(places) - size, chosen))
        return sorted(m for m in found if m[0] <= pool)
