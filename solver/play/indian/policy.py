"""A fast Indian rummy player, from what its own hand and the pile show: the model of play.

``FastPolicy`` plays a turn the way a plain strong player does, with the
packing of ``hands`` (how far the hand is from a declaration, pure
sequences first):

* take the pile top only when it brings the hand closer to a declaration
  (the packing of the hand with it, its best discard other than that card,
  is nearer than the hand now);
* throw the card the packing leaves out, the one with the most points first
  (never the card just taken), and when nothing is left out, the card of the
  least complete group;
* declare when the packing is complete (distance 0: always a valid show).

It is what the advisor assumes the other players do, and the arena's
"distance" player.  ``useful`` and ``outs`` say which cards would help a hand.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence

from solver.deadline import Deadline
from solver.play.indian.hands import IndianHands, Packing

RANKS = 13
CACHE = 4096
LATE_NODES = 40
"""Search nodes a packing may take once the deadline has passed: the first
descent (groups come most complete first), so an answer that must still
value its moves stays within milliseconds of the deadline."""


class FastPolicy:
    """Turn decisions on hands of card ids (see the module docstring), with a
    bounded cache of packings (hands repeat across an advisor's deals).  Past
    ``deadline`` a packing is the search's first descent."""

    def __init__(self, hands: IndianHands, deadline: Deadline | None = None) -> None:
        self.hands = hands
        self.deadline = deadline
        self._cache: OrderedDict[tuple[int, ...], Packing] = OrderedDict()

    def packing(self, hand: Iterable[int], like: Packing | None = None) -> Packing:
        """The (cached) packing of ``hand``; ``like``: the packing of the hand
        one card away that it came from, its fallback when the search is cut
        short (``IndianHands.evaluate``)."""
        key = tuple(sorted(hand))
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        late = self.deadline is not None and self.deadline.expired()
        # past the deadline the first descent only, kept too: the answer's
        # words may ask for the same hand again
        packing = self.hands.evaluate(key, LATE_NODES if late else None, like)
        self._cache[key] = packing
        if len(self._cache) > CACHE:
            self._cache.popitem(last=False)
        return packing

    def known(self, hand: Iterable[int]) -> Packing | None:
        """The packing of ``hand`` when it was already worked out, else None."""
        return self._cache.get(tuple(sorted(hand)))

    def takes(self, hand: Sequence[int], top: int) -> bool:
        """Whether to take ``top`` into ``hand`` (13 cards) rather than draw."""
        if self.hands.wild[top]:
            return True
        now = self.packing(hand)
        if now.distance == 0:
            return False
        after = self.packing([*hand, top], now)
        if top in after.left_out and after.left_out.count(top) >= len(after.left_out):
            return False  # its best discard would be the card taken
        return after.distance < now.distance

    def discard(self, hand: Sequence[int], taken: int | None = None,
                like: Packing | None = None) -> tuple[int, Packing]:
        """The card to throw from ``hand`` (one card over size) and the packing
        (``like``: the packing of the hand before its draw, see ``packing``)."""
        packing = self.packing(hand, like)
        points = self.hands.points
        options = [c for c in packing.left_out if c != taken]
        wild = self.hands.wild
        naturals = [c for c in options if not wild[c]]
        if naturals:
            return max(naturals, key=lambda c: (points[c], c)), packing
        if options:
            return options[0], packing
        # everything is packed: break the least complete group, its dearest card
        groups = sorted(packing.groups, key=lambda g: (-g.missing, len(g.cards)))
        for group in groups:
            cards = [c for c in group.cards if c != taken]
            if cards:
                return max(cards, key=lambda c: (points[c], c)), packing
        return next(c for c in hand if c != taken), packing


def useful(hands: IndianHands, packing: Packing) -> set[int]:
    """Card types that would bring a hand with ``packing`` closer to a
    declaration: gaps and ends of its runs, missing suits of its sets,
    neighbours of its lone seeds, and the wild cards."""
    wild = hands.wild
    out: set[int] = set()
    for group in packing.groups:
        cards = group.cards
        first = cards[0]
        suit, rank = divmod(first, RANKS)
        if group.missing == 0 and len(cards) >= 3:
            continue
        if len(set(cards)) == 1 and len(cards) > 1:  # a tanala under way
            out.add(first)
            continue
        if len(cards) == 1 or group.run:
            ranks = {c % RANKS for c in cards}
            low, high = min(ranks), max(ranks)
            if 0 in ranks and high >= 11 and len(ranks) > 1:  # the ace on top
                ranks = {(13 if r == 0 else r) for r in ranks}
                low, high = min(ranks), max(ranks)
            for r in range(max(0, low - 2), min(13, high + 2) + 1):
                if r not in ranks and (high - low < 2 or low <= r <= high or len(ranks) == 1
                                       or r in (low - 1, high + 1)):
                    out.add(suit * RANKS + r % 13)
        if len(cards) == 1 or not group.run:
            suits = {c // RANKS for c in cards}
            out.update(s * RANKS + rank for s in range(4) if s not in suits)
    if packing.distance > 0:
        out.update(c for c in range(len(wild)) if wild[c])
    return out


def outs(hands: IndianHands, packing: Packing, unseen_counts: Sequence[int]) -> int:
    """How many unseen cards (with copies) are ``useful`` to the packing."""
    return sum(unseen_counts[c] for c in useful(hands, packing))
