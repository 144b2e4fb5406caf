"""Indian rummy melds, shows and counts, written again for the referee: no ``solver`` import.

Cards are the arena's ints (``suit * 13 + rank``, rank 0 = ace) and 52 for a
printed joker.  A deal's ``wild`` set holds the printed joker and every card
of the cut rank; a cut-rank card may also stand for itself.

* ``read_meld(cards, wild)`` -- how a group reads at best: a pure sequence
  (a run with no card standing in for another), a sequence (a run with
  stand-ins), a set (3-4 cards of one rank in distinct suits, stand-ins
  filling missing suits), or not a meld.  Every meld holds at least one card
  standing for itself; a run has at most one ace, A-2-3 and Q-K-A both
  valid, K-A-2 not.
* ``show_problem(groups, hand_size, wild)`` -- why a declaration is not a
  valid show (None when it is): every card melded, at least two sequences,
  at least one of them pure.
* ``least_count(cards, wild, cap)`` -- the count a loser pays, the least
  over every arrangement of its cards: with two sequences (one pure) only
  the unmelded cards count; with a pure sequence alone every card but that
  sequence's; else every card; capped.

>>> wild = wild_cards(6)  # 7s are wild
>>> read_meld([19, 20, 21], wild)  # 7H 8H 9H: the 7 stands for itself
'pure'
>>> read_meld([52, 20, 21], wild), read_meld([0, 13, 52], wild), read_meld([12, 0, 1], wild)
('sequence', 'set', None)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from itertools import combinations

from benchmarks.arena.joker_cards import JOKER, RANKS, SUITS


def wild_cards(cut_rank: int | None) -> frozenset[int]:
    """The wild cards of a deal: the printed joker and the cut rank in every suit."""
    wild = {JOKER}
    if cut_rank is not None:
        wild.update(s * RANKS + cut_rank for s in range(SUITS))
    return frozenset(wild)


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


def read_meld(cards: Sequence[int], wild: frozenset[int]) -> str | None:
    """``'pure'``, ``'sequence'``, ``'set'`` or None (see the module docstring)."""
    cards = list(cards)
    if len(cards) < 3:
        return None
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
                 wild: frozenset[int]) -> str | None:
    """Why ``groups`` are not a valid show of ``hand`` (None: valid)."""
    shown = sorted(c for g in groups for c in g)
    if shown != sorted(hand):
        return "the groups do not hold exactly the cards kept"
    readings = [read_meld(g, wild) for g in groups]
    if any(r is None for r in readings):
        return "a group is not a meld"
    pure = sum(r == "pure" for r in readings)
    sequences = sum(r in ("pure", "sequence") for r in readings)
    if pure < 1:
        return "no pure sequence"
    if sequences < 2:
        return "fewer than two sequences"
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
