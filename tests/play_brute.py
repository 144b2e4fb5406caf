"""Slow, obviously-right references for the play functions (gin, layoffs, hints).

Written from RULES.md sections 5 and 7 alone: meld validity comes from
``tests.bruteforce`` (readings found by brute force, sharing no code with
``solver.melds``, ``solver.classify`` or ``solver.layoffs``), and every choice
is made by trying all of them.

* ``gin_meld_masks`` / ``brute_knock`` -- gin knock eligibility of an
  11-card hand: every meld as a bitmask, every union of disjoint melds.
* ``brute_play`` -- the best mix of new melds, layoffs onto table melds and
  cards kept: every sub-multiset of the hand is tried on each table meld.
* ``brute_minimax`` -- the gin knocker's best arrangement against the
  defender's best reply, over every arrangement within the knock limit.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

from solver.cards import rank_of, suit_of
from solver.results import Meld
from solver.rules import Deal, base_points, melded_points
from solver.scoring import score_arrangement
from tests.bruteforce import _partitions, _remove, _sub_multisets, is_meld_brute

# ---------------------------------------------------------------------------
# Gin knock eligibility (one deck, no wilds, ace low)


def _gin_value(card: int) -> int:
    return min(rank_of(card) + 1, 10)


def _is_gin_meld(cards: Sequence[int]) -> bool:
    if len(cards) < 3:
        return False
    ranks = [rank_of(c) for c in cards]
    suits = [suit_of(c) for c in cards]
    if len(set(ranks)) == 1:
        return len(cards) <= 4 and len(set(suits)) == len(cards)
    if len(set(suits)) != 1:
        return False
    ordered = sorted(ranks)
    return ordered == list(range(ordered[0], ordered[0] + len(cards)))


def gin_meld_masks(cards: Sequence[int]) -> list[int]:
    """Every subset of ``cards`` (as a bitmask of positions) that is a gin meld."""
    masks = []
    n = len(cards)
    for size in range(3, n + 1):
        for combo in itertools.combinations(range(n), size):
            if _is_gin_meld([cards[i] for i in combo]):
                masks.append(sum(1 << i for i in combo))
    return masks


def brute_min_deadwood(cards: Sequence[int]) -> int:
    """Least gin deadwood of ``cards`` (no discard)."""
    masks = gin_meld_masks(cards)
    reachable = {0}
    for mask in masks:
        reachable |= {m | mask for m in reachable if not m & mask}
    values = [_gin_value(c) for c in cards]
    return sum(values) - max(sum(v for i, v in enumerate(values) if m >> i & 1) for m in reachable)


def brute_knock(cards: Sequence[int], limit: int) -> tuple[dict[int, int], bool]:
    """For an 11-card gin hand: least deadwood after each discard, and big gin."""
    masks = gin_meld_masks(cards)
    reachable = {0}
    for mask in masks:
        reachable |= {m | mask for m in reachable if not m & mask}
    values = [_gin_value(c) for c in cards]
    total = sum(values)

    def points(mask: int) -> int:
        return sum(v for i, v in enumerate(values) if mask >> i & 1)

    full = (1 << len(cards)) - 1
    melded = {m: points(m) for m in reachable}
    per_discard = {}
    for i, card in enumerate(cards):
        best = max(p for m, p in melded.items() if not m >> i & 1)
        per_discard[card] = total - values[i] - best
    return per_discard, full in reachable


# ---------------------------------------------------------------------------
# Layoffs


def _extension_points(table: Meld, laid: tuple[int, ...], deal: Deal) -> int | None:
    """Best points of the ``laid`` cards on ``table`` (None: they do not fit).

    A run keeps the meaning of its cards (a joker's meaning is fixed); a
    set's wild cards may stand for any missing suit.
    """
    original = Counter(zip(table.cards, table.represents, strict=True))
    best: int | None = None
    for reading in is_meld_brute([*table.cards, *laid], deal):
        if reading.kind != table.kind:
            continue
        pairs = list(zip(reading.cards, reading.represents, strict=True))
        if table.kind == "run" and Counter(pairs) & original != original:
            continue
        new = Counter(pairs)
        if table.kind == "run":
            new.subtract(original)
        else:
            for card in table.cards:  # any pair of that physical card
                match = next(p for p in new if p[0] == card and new[p] > 0)
                new[match] -= 1
        low_ace = pairs[0] if reading.kind == "run" and rank_of(pairs[0][1]) == 0 else None
        points = sum(
            melded_points(c, r, deal, (c, r) == low_ace and c == r) * k
            for (c, r), k in new.items() if k > 0
        )
        if best is None or points > best:
            best = points
    return best


def _leaf(cards: tuple[int, ...], deal: Deal, required: int | None) -> tuple[int, int] | None:
    """(deadwood, net) of the best split of ``cards`` into melds; with
    ``required``, only splits that meld at least one copy of it."""
    maximise = deal.rules.objective == "max_net"
    best: tuple[int, int] | None = None
    for groups, deadwood in _partitions(cards, deal):
        if required is not None and deadwood.count(required) == cards.count(required):
            continue
        for melds in itertools.product(*(is_meld_brute(g, deal) for g in groups)):
            points = score_arrangement(melds, deadwood, deal)
            value = (points.deadwood_points, points.net_points)
            if best is None or (value[1] > best[1] if maximise else value[0] < best[0]):
                best = value
    return best


def brute_play(
    hand: Sequence[int], table: Sequence[Meld], deal: Deal, required: int | None = None
) -> tuple[int, int] | None:
    """(deadwood, net) of the best play of ``hand`` against ``table`` under the
    variant's objective; with ``required`` only plays that meld or lay off a
    copy of it (None when there is none)."""
    maximise = deal.rules.objective == "max_net"

    @functools.cache
    def best(j: int, cards: tuple[int, ...], satisfied: bool) -> tuple[int, int] | None:
        if j == len(table):
            return _leaf(cards, deal, None if satisfied else required)
        found: tuple[int, int] | None = None
        for laid in _sub_multisets(cards):
            if laid:
                points = _extension_points(table[j], laid, deal)
                if points is None:
                    continue
            else:
                points = 0
            rest = best(j + 1, _remove(cards, laid), satisfied or required in laid)
            if rest is None:
                continue
            value = (rest[0], rest[1] + points)
            if found is None or (value[1] > found[1] if maximise else value[0] < found[0]):
                found = value
        return found

    return best(0, tuple(sorted(hand)), required is None)


# ---------------------------------------------------------------------------
# Gin minimax


def knocker_arrangements(
    cards: Sequence[int], deal: Deal, limit: int
) -> Iterator[tuple[tuple[Meld, ...], tuple[int, ...]]]:
    """Every split of ``cards`` into melds (each reading) + deadwood <= ``limit``."""
    for groups, deadwood in _partitions(tuple(sorted(cards)), deal):
        if sum(base_points(c, deal) for c in deadwood) > limit:
            continue
        for melds in itertools.product(*(is_meld_brute(g, deal) for g in groups)):
            yield tuple(melds), deadwood


def settle_points(knocker: int, defender: int, deal: Deal, big_gin: bool = False) -> int:
    """The knocker's signed score, straight from RULES.md section 5."""
    rules = deal.rules
    if big_gin:
        return rules.big_gin_bonus + defender
    if knocker == 0:
        return rules.gin_bonus + defender
    if defender < knocker or (defender == knocker and rules.undercut_on_tie):
        return -(knocker - defender + rules.undercut_bonus)
    return defender - knocker


def brute_minimax(knocker: Sequence[int], defender: Sequence[int], deal: Deal, limit: int) -> int | None:
    """The knocker's best signed score over every arrangement of its cards
    (``hand_size`` of them) within ``limit`` against the defender's best
    reply (None when it cannot knock)."""
    alone = brute_play(defender, (), deal)
    assert alone is not None
    replies: dict[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], int] = {}
    best: int | None = None
    for melds, deadwood in knocker_arrangements(knocker, deal, limit):
        mine = sum(base_points(c, deal) for c in deadwood)
        if mine == 0:
            value = settle_points(0, alone[0], deal)
        else:
            key = tuple(sorted((m.cards, m.represents) for m in melds))
            if key not in replies:
                reply = brute_play(defender, melds, deal)
                assert reply is not None
                replies[key] = reply[0]
            value = settle_points(mine, replies[key], deal)
        if best is None or value > best:
            best = value
    return best


def remove_one(cards: Sequence[int], card: int) -> list[int]:
    """``cards`` without one copy of ``card``."""
    left = list(cards)
    left.remove(card)
    return left
