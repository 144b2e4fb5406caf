"""A tiny, slow, obviously-right reference optimiser for cross-checking solve().

Written from RULES.md alone: it shares no code with ``solver.melds`` or the
engines, only the card encoding, the rules/points tables and
``score_arrangement`` (which defines what an arrangement is worth).

Meld readings are found by brute force.  A reading says which standard card
each physical card stands for; it is valid when the represented cards are a
set, a run or a tanala (checked directly on the represented cards), every
non-wild card stands for itself, and the natural/substitution limits hold.
Every arrangement (discard x partition into melds + deadwood x reading of each
meld) is then scored with ``score_arrangement`` and the best one kept.

Three shortcuts are taken, all plainly safe (and ``test_bruteforce_selftest``
checks the first two against the literal 52-way definition):

* the represented cards of a meld are drawn from the shapes a meld can have
  (a rank with 3-4 suits, a window of consecutive ranks in one suit, three
  identical cards) instead of from all 52**n products;
* wild cards are laid on a shape once per choice of which of them stand for
  themselves: which stand-in fills which gap changes neither purity nor
  points;
* ``brute_optimum`` keeps one reading per (kind, pure, points) for each group
  of cards, because ``score_arrangement`` looks at nothing else of a meld.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from solver.cards import make_card, rank_of, suit_of
from solver.model import Meld, MeldKind
from solver.rules import Deal, Rules, base_points, melded_points
from solver.scoring import Points, score_arrangement

# Hands checked against solve(), per case name; conftest prints it at the end.
CHECKED: Counter[str] = Counter()


class Shape(NamedTuple):
    """The cards a meld could represent, in meld order."""

    kind: MeldKind
    represents: tuple[int, ...]
    low_ace_slot: int | None  # slot of an ace played low (bottom of A-2-3...)


class Arrangement(NamedTuple):
    """One way to lay out a hand."""

    melds: tuple[Meld, ...]
    deadwood: tuple[int, ...]
    discard: int | None
    points: Points


# ---------------------------------------------------------------------------
# Meld shapes, straight from RULES.md section 1


def _run_ranks(rules: Rules, size: int) -> Iterator[tuple[tuple[int, ...], bool]]:
    """Rank sequences (low to high) a run of ``size`` cards may have, and
    whether the run starts with a low ace that is not part of a wrap."""
    if rules.ace == "wrap":
        # K-A-2 allowed: ranks consecutive modulo 13, never more than 13 cards.
        if size > 13:
            return
        for start in range(13):
            yield tuple((start + i) % 13 for i in range(size)), start == 0
        return
    # Positions 1..13 are A..K; high_low adds position 14 = A (Q-K-A).
    top = 14 if rules.ace == "high_low" else 13
    for start in range(1, top - size + 2):
        ranks = tuple((position - 1) % 13 for position in range(start, start + size))
        if len(set(ranks)) == size:  # no rank twice, at most one ace
            yield ranks, start == 1


def _shapes(rules: Rules, size: int) -> Iterator[Shape]:
    """Every represented-card shape a meld of ``size`` cards can take."""
    if size in (3, 4):
        suit_choices = (
            itertools.combinations_with_replacement(range(4), size)
            if rules.set_allow_same_suit
            else itertools.combinations(range(4), size)
        )
        for suits in suit_choices:
            for rank in range(13):
                yield Shape("set", tuple(make_card(rank, s) for s in suits), None)
    if size >= 3:
        for ranks, starts_low in _run_ranks(rules, size):
            for suit in range(4):
                cards = tuple(make_card(r, suit) for r in ranks)
                yield Shape("run", cards, 0 if starts_low and ranks[0] == 0 else None)
    if size == 3 and rules.tanala_enabled:
        for card in range(52):
            yield Shape("tanala", (card, card, card), None)


def _check_shape(shape: Shape, rules: Rules) -> None:
    """Re-check a shape against the written rule (guards the generator above)."""
    cards = shape.represents
    assert all(0 <= c < 52 for c in cards)
    if shape.kind == "set":
        assert 3 <= len(cards) <= 4
        assert len({rank_of(c) for c in cards}) == 1
        assert rules.set_allow_same_suit or len({suit_of(c) for c in cards}) == len(cards)
    elif shape.kind == "run":
        assert len(cards) >= 3 and len({suit_of(c) for c in cards}) == 1
        ranks = [rank_of(c) for c in cards]
        assert len(set(ranks)) == len(ranks)
        steps = {(b - a) % 13 for a, b in itertools.pairwise(ranks)}
        assert steps == {1}
        if rules.ace != "wrap":
            # only an ace may follow a king (Q-K-A), and nothing follows that ace
            for a, b in itertools.pairwise(ranks):
                assert b > a or (rules.ace == "high_low" and a == 12 and b == 0)
            assert 0 not in ranks[1:-1]
    else:
        assert len(cards) == 3 and len(set(cards)) == 1


# ---------------------------------------------------------------------------
# Readings of a group of cards


@functools.lru_cache(maxsize=200_000)
def _readings(cards: tuple[int, ...], deal: Deal) -> tuple[Meld, ...]:
    rules = deal.rules
    fixed = [c for c in cards if c not in deal.wild]  # a non-wild card is only itself
    wilds = tuple(sorted(c for c in cards if c in deal.wild))
    found: dict[tuple[object, ...], Meld] = {}
    for shape in _shapes(rules, len(cards)):
        _check_shape(shape, rules)
        order: list[int | None] = [None] * len(cards)
        for card in fixed:
            slot = next(
                (i for i, r in enumerate(shape.represents) if r == card and order[i] is None),
                None,
            )
            if slot is None:
                break
            order[slot] = card
        else:
            free = [i for i, c in enumerate(order) if c is None]
            for filling in _fillings(tuple(shape.represents[i] for i in free), wilds):
                for i, card in zip(free, filling, strict=True):
                    order[i] = card
                cards_in_order = tuple(c for c in order if c is not None)
                meld = _reading(shape, list(zip(cards_in_order, shape.represents, strict=True)),
                                deal)
                if meld is not None:
                    found[(meld.kind, meld.cards, meld.represents)] = meld
    return tuple(found.values())


def _fillings(slots: tuple[int, ...], wilds: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Ways to lay the wild cards on the free slots (aligned with ``slots``).

    A reading scores by which cards stand for themselves, not by which
    substitute fills which gap, so this yields one filling for each set of
    slots that can get their own card while every other slot gets a stand-in.
    """
    own_able = [i for i, slot in enumerate(slots) if slot in wilds]
    for size in range(len(own_able) + 1):
        for own in itertools.combinations(own_able, size):
            left = list(wilds)
            try:
                for i in own:
                    left.remove(slots[i])  # that slot holds its own card
            except ValueError:
                continue  # not enough copies for every chosen slot
            others = [i for i in range(len(slots)) if i not in own]
            stand_ins = _stand_ins(tuple(slots[i] for i in others), tuple(sorted(left)))
            if stand_ins is None:
                continue
            filling = list(slots)
            for i, card in zip(others, stand_ins, strict=True):
                filling[i] = card
            yield tuple(filling)


@functools.lru_cache(maxsize=200_000)
def _stand_ins(slots: tuple[int, ...], cards: tuple[int, ...]) -> tuple[int, ...] | None:
    """``cards`` in an order where none lies on a slot equal to itself, if any."""
    if not slots:
        return ()
    for card in sorted(set(cards)):
        if card != slots[0]:
            rest = list(cards)
            rest.remove(card)
            tail = _stand_ins(slots[1:], tuple(rest))
            if tail is not None:
                return (card, *tail)
    return None


def _reading(shape: Shape, pairs: Sequence[tuple[int, int]], deal: Deal) -> Meld | None:
    """The meld of physical cards standing for ``shape``'s cards as ``pairs``
    (card, represents) say, in any order; None if a rule forbids it."""
    rules = deal.rules
    assert sorted(r for _, r in pairs) == sorted(shape.represents)
    if any(c != r and c not in deal.wild for c, r in pairs):
        return None  # a non-wild card can only stand for itself
    naturals = sum(1 for c, r in pairs if c == r)
    substitutions = len(pairs) - naturals
    if naturals < rules.min_naturals_per_meld:
        return None
    if rules.max_wilds_per_meld is not None and substitutions > rules.max_wilds_per_meld:
        return None
    if shape.kind == "tanala" and substitutions:
        return None  # three identical cards, all natural
    # the slot of a low ace holds the only ace of its run
    low_ace = None if shape.low_ace_slot is None else shape.represents[shape.low_ace_slot]
    points = sum(melded_points(c, r, deal, r == low_ace) for c, r in pairs)
    pure = shape.kind != "set" and substitutions == 0
    in_order = sorted(pairs, key=lambda pair: shape.represents.index(pair[1]))
    return Meld(
        shape.kind,
        tuple(c for c, _ in in_order),
        tuple(r for _, r in in_order),
        pure,
        points,
    )


def is_meld_brute(cards: Sequence[int], deal: Deal) -> list[Meld]:
    """Every valid reading of the multiset ``cards`` as one set, run or tanala.

    Readings that differ only in which stand-in fills which gap score the
    same and are listed once.
    """
    return list(_readings(tuple(sorted(cards)), deal))


def meld_reading_error(meld: Meld, deal: Deal) -> str | None:
    """Why ``meld`` (e.g. from solve()) is not a valid reading, or None if it is."""
    if len(meld.cards) != len(meld.represents):
        return "cards and represents differ in length"
    pairs = list(zip(meld.cards, meld.represents, strict=True))
    reason = f"represented cards are not a valid {meld.kind}"
    for shape in _shapes(deal.rules, len(pairs)):
        if shape.kind != meld.kind or sorted(shape.represents) != sorted(meld.represents):
            continue
        reading = _reading(shape, pairs, deal)
        if reading is None:
            reason = "a non-wild card stands for another card, or a wild limit is broken"
        elif (reading.pure, reading.points) != (meld.pure, meld.points):
            reason = (
                f"pure/points should be {reading.pure}/{reading.points}, "
                f"got {meld.pure}/{meld.points}"
            )
        else:
            return None
    return reason


# ---------------------------------------------------------------------------
# The optimum


def _sub_multisets(cards: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Distinct sub-multisets of a sorted tuple, as sorted tuples."""
    counts = sorted(Counter(cards).items())
    for takes in itertools.product(*(range(n + 1) for _, n in counts)):
        yield tuple(c for (c, _), k in zip(counts, takes, strict=True) for _ in range(k))


def _remove(cards: tuple[int, ...], taken: tuple[int, ...]) -> tuple[int, ...]:
    left = list(cards)
    for c in taken:
        left.remove(c)
    return tuple(left)


def _partitions(
    cards: tuple[int, ...], deal: Deal
) -> Iterator[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]:
    """Every split of sorted ``cards`` into meldable groups + deadwood.

    The smallest card either lies in the deadwood or is in a meld with some
    of the rest; that covers every split (some are produced twice).
    """
    if not cards:
        yield (), ()
        return
    first, rest = cards[0], cards[1:]
    for melds, deadwood in _partitions(rest, deal):
        yield melds, (first, *deadwood)
    for others in _sub_multisets(rest):
        group = (first, *others)
        if len(group) >= 3 and _readings(group, deal):
            for melds, deadwood in _partitions(_remove(rest, others), deal):
                yield (group, *melds), deadwood


def _signature_readings(group: tuple[int, ...], deal: Deal) -> list[Meld]:
    """One reading per (kind, pure, points): all that score_arrangement sees."""
    kept: dict[tuple[object, ...], Meld] = {}
    for meld in _readings(group, deal):
        kept.setdefault((meld.kind, meld.pure, meld.points), meld)
    return list(kept.values())


def objective_value(points: Points, rules: Rules) -> int:
    """The number solve() optimises: net for max_net, else deadwood/count."""
    return points.net_points if rules.objective == "max_net" else points.deadwood_points


def brute_optimum(hand: Sequence[int], deal: Deal, discard: bool) -> tuple[int, Arrangement]:
    """The optimal objective value of ``hand`` and one arrangement reaching it.

    ``discard``: one card (any) is thrown away first and only the rest scored.
    Maximises ``net_points`` for ``max_net``, else minimises ``deadwood_points``
    (the uncapped cascade count for the Indian objectives).
    """
    rules = deal.rules
    maximise = rules.objective == "max_net"
    hand = tuple(sorted(hand))
    options: list[tuple[int | None, tuple[int, ...]]] = (
        [(c, _remove(hand, (c,))) for c in sorted(set(hand))] if discard else [(None, hand)]
    )
    best: tuple[int, Arrangement] | None = None
    for thrown, kept in options:
        seen: set[tuple[object, ...]] = set()
        for groups, deadwood in _partitions(kept, deal):
            key = (tuple(sorted(groups)), deadwood)
            if key in seen:
                continue
            seen.add(key)
            for melds in itertools.product(*(_signature_readings(g, deal) for g in groups)):
                points = score_arrangement(melds, deadwood, deal)
                value = objective_value(points, rules)
                if best is None or (value > best[0] if maximise else value < best[0]):
                    best = (value, Arrangement(tuple(melds), deadwood, thrown, points))
    assert best is not None
    return best


def hand_points(hand: Sequence[int], deal: Deal) -> int:
    """Sum of base points of ``hand`` (handy in self-tests)."""
    return sum(base_points(c, deal) for c in hand)
