"""A legal random Rummy 500 player, to fuzz the referee.

It finds its melds and layoffs with the referee's own meld reader (no
``solver``): every run window of each suit and every set of each rank the
hand can fill, jokers included (a set's jokers at random places, so both
readings of a joker occur), and every way to grow each table meld by up to
three cards an end.  Its draw: mostly the stock, sometimes the pile top,
sometimes a deeper card it can use; with the stock empty it passes half the
time.  Its play: the card it must use first, then random melds and layoffs
while a coin says so, then a random throw (never the top it took alone).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from benchmarks.arena.joker_cards import JOKER, RANKS, SUITS
from benchmarks.arena.rummy500.melds import HIGH_ACE, MAX_SET, Meld, read_extension, read_meld
from benchmarks.arena.rummy500.referee import (
    DRAW_STOCK,
    PASS,
    Action,
    Layoff,
    Phase,
    PlayerView,
    play,
    take_discard,
)

MAX_END = 3


def run_melds(hand: Counter[int]) -> list[tuple[int, ...]]:
    """Every run (meld order) the cards of ``hand`` can form."""
    out = []
    for suit in range(SUITS):
        for low in range(HIGH_ACE - 1):
            for high in range(low + 2, min(HIGH_ACE, low + RANKS - 1) + 1):
                cards = tuple(suit * RANKS + q % RANKS for q in range(low, high + 1))
                placed = tuple(c if hand[c] else JOKER for c in cards)
                missing = placed.count(JOKER)
                if missing < len(placed) and missing <= hand[JOKER]:
                    out.append(placed)
    return out


def set_melds(hand: Counter[int], rng: random.Random) -> list[tuple[int, ...]]:
    """Every set the cards of ``hand`` can form, each joker at a random place."""
    out = []
    for rank in range(RANKS):
        have = [s * RANKS + rank for s in range(SUITS) if hand[s * RANKS + rank]]
        for size in range(1, len(have) + 1):
            for naturals in combinations(have, size):
                for jokers in range(min(hand[JOKER], MAX_SET - size) + 1):
                    if size + jokers >= 3:
                        cards = [*naturals, *[JOKER] * jokers]
                        rng.shuffle(cards)
                        out.append(tuple(cards))
    return out


def extensions(meld: Meld, hand: Counter[int]) -> list[tuple[int, ...]]:
    """Every meld ``meld`` grows into with cards of ``hand`` (meld order):
    a set by one or two cards, a run by up to ``MAX_END`` cards an end, its
    outermost new card a joker or not."""
    out = []
    if meld.kind == "set":
        rank = next(c for c in meld.cards if c != JOKER) % RANKS
        extra = [s * RANKS + rank for s in range(SUITS) if hand[s * RANKS + rank]]
        extra += [JOKER] * hand[JOKER]
        for size in range(1, MAX_SET - len(meld.cards) + 1):
            out += [(*meld.cards, *added) for added in sorted(set(combinations(extra, size)))]
        return out
    assert meld.low is not None
    suit_base = meld.represents[0] - meld.represents[0] % RANKS
    high = meld.low + len(meld.cards) - 1
    for below in range(MAX_END + 1):
        for above in range(MAX_END + 1):
            if (not below and not above) or meld.low - below < 0 or high + above > HIGH_ACE:
                continue
            low_part = [suit_base + q % RANKS for q in range(meld.low - below, meld.low)]
            high_part = [suit_base + q % RANKS for q in range(high + 1, high + above + 1)]
            variants = [(low_part, high_part)]
            if low_part:
                variants.append(([JOKER, *low_part[1:]], high_part))
            if high_part:
                variants.append((low_part, [*high_part[:-1], JOKER]))
            for lows, highs in variants:
                need = Counter([*lows, *highs])
                if all(hand[c] >= n for c, n in need.items()):
                    out.append((*lows, *meld.cards, *highs))
    return out


class RandomPlayer:
    """Random legal moves (see the module docstring)."""

    name = "random"

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def start_deal(self, seat: int, seed: int) -> None:
        """Reseed for the round."""
        self.rng = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        """A random legal draw or play."""
        if view.phase == Phase.DRAW:
            return self.draw(view)
        return self.play(view)

    def uses(self, cards: Sequence[int], card: int,
             table: Sequence[Meld]) -> list[tuple[int, tuple[int, ...]]]:
        """Every way to use ``card`` of ``cards``: a new meld (-1, cards) or a
        layoff (target, the meld afterwards)."""
        hand = Counter(cards)
        out = [(-1, m) for m in [*run_melds(hand), *set_melds(hand, self.rng)] if card in m]
        for index, meld in enumerate(table):
            for grown in extensions(meld, hand):
                if card in read_extension(meld, grown).added:
                    out.append((index, grown))
        return out

    def draw(self, view: PlayerView) -> Action:
        """Mostly the stock; the top or a usable deeper card now and then."""
        table = [read_meld(t.cards, "run" if t.kind == "run" else "set") for t in view.table]
        top = []
        if view.pile and not (view.pile[-1] == JOKER and set(view.hand) == {JOKER}):
            top.append(take_discard(view.pile[-1]))
        deep = [take_discard(card) for depth, card in enumerate(reversed(view.pile[:-1]), 2)
                if self.uses([*view.hand, *view.pile[-depth:]], card, table)]
        roll = self.rng.random()
        if view.stock_size:
            if roll < 0.15 and deep:
                return self.rng.choice(deep)
            if roll < 0.35 and top:
                return top[0]
            return DRAW_STOCK
        if roll < 0.5 or not top + deep:
            return PASS
        return self.rng.choice(top + deep)

    def play(self, view: PlayerView) -> Action:
        """The forced use, random melds and layoffs, a random throw."""
        hand = Counter(view.hand)
        table = [read_meld(t.cards, "run" if t.kind == "run" else "set") for t in view.table]
        melds: list[tuple[int, ...]] = []
        forced: list[Layoff] = []
        if view.must_use is not None:
            target, cards = self.rng.choice(self.uses(view.hand, view.must_use, table))
            if target < 0:
                melds.append(cards)
                hand.subtract(cards)
            else:
                forced.append(self._lay_off(table, hand, target, cards))
        while self.rng.random() < 0.7:
            found = [*run_melds(hand), *set_melds(hand, self.rng)]
            if not found:
                break
            melds.append(self.rng.choice(found))
            hand.subtract(melds[-1])
        # the table as the referee sees it: the old melds, then the new ones
        table = table[:len(view.table)] + [read_meld(m) for m in melds]
        layoffs = list(forced)
        while self.rng.random() < 0.7:
            grown = [(i, g) for i, meld in enumerate(table) for g in extensions(meld, hand)]
            if not grown:
                break
            layoffs.append(self._lay_off(table, hand, *self.rng.choice(grown)))
        left = sorted(hand.elements())
        throwable = [c for c in left if c != view.taken_top]
        if left and not throwable:  # only the top taken alone is left: lay nothing down
            return play((), (), self.rng.choice([c for c in view.hand if c != view.taken_top]))
        return play(melds, layoffs, self.rng.choice(throwable) if left else None)

    @staticmethod
    def _lay_off(table: list[Meld], hand: Counter[int], target: int,
                 cards: tuple[int, ...]) -> Layoff:
        extension = read_extension(table[target], cards)
        hand.subtract(extension.added)
        table[target] = extension.meld
        return Layoff(target, cards)
