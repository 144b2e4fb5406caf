"""A legal random Rummy 500, Rommy and basic rummy player, to fuzz the referee.

It finds its melds and layoffs with the referee's own meld reader (no
``solver``): every run window of each suit and every set of each rank the
hand can fill, jokers included (a set's jokers at random places, so both
readings of a joker occur), and every way to grow each table meld by up to
three cards an end.  Its draw: mostly the stock, sometimes the pile top,
sometimes a deeper card it can use; with the stock empty it passes half the
time.  Its play: the card it must use first, then random melds and layoffs
while a coin says so, then a random throw (never the top it took alone).

Where an unused deeper card costs a penalty (Rommy: ``Variant.pile_penalty``)
it also takes, now and then, a deeper card it may not be able to use, and
leaves the card it took unused ``SKIP_USE`` of the time; where every turn
ends with a throw (``Variant.must_throw``) it lays down or off nothing that
would leave it no card to throw.  Where the pile's top card only may be
taken (basic rummy: ``Variant.deep_takes`` false) it takes no deeper card;
where an empty stock is refilled from the pile (``Variant.turn_over_pile``)
it draws from it (or takes the top) instead of passing; where the ace is
low only (``Variant.ace_high`` false) it makes no Q-K-A run.  Rummy 500's
rounds are the same as ever for the same seeds (the Rommy draws of the coin
come on top).

With two decks (Rummy 500 at 5 to 8 players) a hand may hold two copies of
a card: its melds and layoffs hold each card once (a set each suit once, a
run each rank once; a set is not grown by a copy of one of its cards), a
take names the topmost copy of a card in the pile (``take_depth``: a deeper
copy cannot be named), and a card taken alone from the top is not thrown
back in either copy.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from benchmarks.arena.core.joker_cards import JOKER, RANKS, SUITS
from benchmarks.arena.laydown.melds import (
    HIGH_ACE,
    MAX_RUN,
    MAX_SET,
    MIN_MELD,
    Meld,
    read_extension,
    read_meld,
)
from benchmarks.arena.laydown.referee import (
    DRAW_STOCK,
    PASS,
    Action,
    Layoff,
    Phase,
    PlayerView,
    play,
    take_depth,
    take_discard,
)

MAX_END = 3
PENALISED_TAKE = 0.05
"""How often (a share of the draws with cards in the stock) a penalty game's
random player takes a deeper card whatever it can do with it."""
SKIP_USE = 0.2
"""How often a penalty game's random player leaves the deeper card it took unused."""


def run_melds(hand: Counter[int], suits: Iterable[int] = range(SUITS),
              ace_high: bool = True) -> list[tuple[int, ...]]:
    """Every run (meld order) of ``suits`` the cards of ``hand`` can form, by
    suit, its lowest place, then its length (a window stops growing once it
    needs more jokers than the hand holds; an ace ends a run high only when
    ``ace_high``)."""
    out = []
    jokers = hand[JOKER]
    top = HIGH_ACE if ace_high else HIGH_ACE - 1
    for suit in suits:
        at = [suit * RANKS + place % RANKS if hand[suit * RANKS + place % RANKS] else JOKER
              for place in range(HIGH_ACE + 1)]  # each place's card, or a joker for it
        for low in range(HIGH_ACE - 1):
            missing = 0
            for high in range(low, min(top, low + RANKS - 1) + 1):
                missing += at[high] == JOKER
                if missing > jokers:
                    break
                if high - low + 1 >= MIN_MELD and missing <= high - low:
                    out.append(tuple(at[low:high + 1]))
    return out


def set_melds(hand: Counter[int], rng: random.Random) -> list[tuple[int, ...]]:
    """Every set the cards of ``hand`` can form, each joker at a random place."""
    out = []
    jokers = hand[JOKER]
    by_rank: list[list[int]] = [[] for _ in range(RANKS)]
    for card in sorted(c for c, count in hand.items() if count > 0 and c != JOKER):
        by_rank[card % RANKS].append(card)  # by suit
    for have in by_rank:
        if len(have) + jokers < MIN_MELD:
            continue
        for size in range(1, len(have) + 1):
            for naturals in combinations(have, size):
                for wild in range(min(jokers, MAX_SET - size) + 1):
                    if size + wild >= MIN_MELD:
                        cards = [*naturals, *[JOKER] * wild]
                        rng.shuffle(cards)
                        out.append(tuple(cards))
    return out


def extensions(meld: Meld, hand: Counter[int], ace_high: bool = True) -> list[tuple[int, ...]]:
    """Every meld ``meld`` grows into with cards of ``hand`` (meld order):
    a set by one or two cards (none a copy of one of its own), a run by up to
    ``MAX_END`` cards an end, its outermost new card a joker or not (an ace
    above the king only when ``ace_high``)."""
    out = []
    if meld.kind == "set":
        rank = next(c for c in meld.cards if c != JOKER) % RANKS
        extra = [s * RANKS + rank for s in range(SUITS)
                 if hand[s * RANKS + rank] and s * RANKS + rank not in meld.cards]
        extra += [JOKER] * hand[JOKER]
        for size in range(1, MAX_SET - len(meld.cards) + 1):
            out += [(*meld.cards, *added) for added in sorted(set(combinations(extra, size)))]
        return out
    assert meld.low is not None
    suit_base = meld.represents[0] - meld.represents[0] % RANKS
    high = meld.low + len(meld.cards) - 1
    top = HIGH_ACE if ace_high else HIGH_ACE - 1
    for below in range(MAX_END + 1):
        for above in range(MAX_END + 1):
            if (not below and not above) or meld.low - below < 0 or high + above > top \
                    or len(meld.cards) + below + above > MAX_RUN:  # no ace both low and high
                continue
            low_part = [suit_base + q % RANKS for q in range(meld.low - below, meld.low)]
            high_part = [suit_base + q % RANKS for q in range(high + 1, high + above + 1)]
            variants = [(low_part, high_part)]
            if low_part:
                variants.append(([JOKER, *low_part[1:]], high_part))
            if high_part:
                variants.append((low_part, [*high_part[:-1], JOKER]))
            for lows, highs in variants:
                added = [*lows, *highs]  # distinct naturals, at most one joker
                if hand[JOKER] >= added.count(JOKER) and all(hand[c] for c in added if c != JOKER):
                    out.append((*lows, *meld.cards, *highs))
    return out


def could_take(meld: Meld, card: int) -> bool:
    """Whether ``card`` could ever be added to ``meld`` (a joker, a set's rank, a run's suit)."""
    if card == JOKER:
        return True
    if meld.kind == "set":
        return meld.represents[0] % RANKS == card % RANKS
    return meld.represents[0] // RANKS == card // RANKS


class RandomPlayer:
    """Random legal moves (see the module docstring)."""

    name = "random"

    def __init__(self) -> None:
        self.rng = random.Random(0)
        self.readings: dict[tuple[tuple[int, ...], str, bool], Meld] = {}
        """Table melds read so far (a round reads the same melds turn after turn)."""

    def start_deal(self, seat: int, seed: int) -> None:
        """Reseed for the round."""
        self.rng = random.Random(seed)
        self.readings.clear()

    def act(self, view: PlayerView) -> Action:
        """A random legal draw or play."""
        if view.phase == Phase.DRAW:
            return self.draw(view)
        return self.play(view)

    def uses(self, cards: Sequence[int], card: int, table: Sequence[Meld],
             ace_high: bool = True) -> list[tuple[int, tuple[int, ...]]]:
        """Every way to use ``card`` of ``cards``: a new meld (-1, cards) or a
        layoff (target, the meld afterwards)."""
        hand = Counter(cards)
        suits = range(SUITS) if card == JOKER else (card // RANKS,)
        # every set: the coin's draws
        found = [*run_melds(hand, suits, ace_high), *set_melds(hand, self.rng)]
        out = [(-1, m) for m in found if card in m]
        for index, meld in enumerate(table):
            if not could_take(meld, card):
                continue
            for grown in extensions(meld, hand, ace_high):
                if grown.count(card) > meld.cards.count(card):  # ``card`` is among those added
                    out.append((index, grown))
        return out

    def usable(self, cards: Sequence[int], card: int, table: Sequence[Meld]) -> bool:
        """Whether ``uses`` finds a way (the same draws of the coin, sooner)."""
        hand = Counter(cards)
        if any(card in m for m in set_melds(hand, self.rng)):
            return True
        if any(card in m for m in run_melds(hand, range(SUITS) if card == JOKER
                                            else (card // RANKS,))):
            return True
        return any(grown.count(card) > meld.cards.count(card)
                   for meld in table if could_take(meld, card)
                   for grown in extensions(meld, hand))

    def draw(self, view: PlayerView) -> Action:
        """Mostly the stock; the top or a usable deeper card now and then
        (in a penalty game, now and then any deeper card; where the stock is
        refilled from the pile, the stock or the top when it is empty)."""
        table = self.table(view) if view.variant.deep_takes else []
        top = []
        if view.pile and set(view.hand) != {view.pile[-1]}:  # a card left to throw
            top.append(take_discard(view.pile[-1]))
        nameable = [(depth, card) for depth, card in enumerate(reversed(view.pile[:-1]), 2)
                    if take_depth(view.pile, card) == depth]  # a card named: its topmost copy
        deep = [take_discard(card) for depth, card in nameable
                if view.variant.deep_takes
                and self.usable([*view.hand, *view.pile[-depth:]], card, table)]
        penalised = []
        if view.variant.pile_penalty is not None:
            penalised = [take_discard(card) for _, card in nameable]
        roll = self.rng.random()
        if view.stock_size:
            if roll < 0.15 and deep:
                return self.rng.choice(deep)
            if roll < 0.35 and top:
                return top[0]
            if roll > 1 - PENALISED_TAKE and penalised:
                return self.rng.choice(penalised)
            return DRAW_STOCK
        if not view.variant.passes:  # the draw turns the pile over into a new stock
            return top[0] if roll < 0.5 and top else DRAW_STOCK
        if roll < 0.5 or not top + deep + penalised:
            return PASS
        return self.rng.choice(top + deep + penalised)

    def play(self, view: PlayerView) -> Action:
        """The forced use, random melds and layoffs, a random throw."""
        hand = Counter(view.hand)
        table = self.table(view)
        ace_high = view.variant.ace_high
        melds: list[tuple[int, ...]] = []
        forced: list[Layoff] = []

        def keeps_a_throw(used: Sequence[int]) -> bool:
            """Whether laying ``used`` too leaves a card to throw (when the game wants one)."""
            if not view.variant.must_throw:
                return True
            left = hand.copy()
            left.subtract(used)
            return any(count > 0 and card != view.taken_top for card, count in left.items())

        if view.must_use is not None:
            uses = [(target, cards)
                    for target, cards in self.uses(view.hand, view.must_use, table, ace_high)
                    if keeps_a_throw(cards if target < 0
                                     else read_extension(table[target], cards).added)]
            if view.variant.pile_penalty is not None and self.rng.random() < SKIP_USE:
                uses = []  # the take stands; the penalty is charged
            if uses or view.variant.pile_penalty is None:
                target, cards = self.rng.choice(uses)
                if target < 0:
                    melds.append(cards)
                    hand.subtract(cards)
                else:
                    forced.append(self._lay_off(table, hand, target, cards, ace_high))
        while self.rng.random() < 0.7:
            found = [*run_melds(hand, ace_high=ace_high), *set_melds(hand, self.rng)]
            if not found:
                break
            meld = self.rng.choice(found)
            if not keeps_a_throw(meld):
                break
            melds.append(meld)
            hand.subtract(meld)
        # the table as the referee sees it: the old melds, then the new ones
        table = table[:len(view.table)] + [read_meld(m, ace_high=ace_high) for m in melds]
        layoffs = list(forced)
        while self.rng.random() < 0.7:
            grown = [(i, g) for i, meld in enumerate(table)
                     for g in extensions(meld, hand, ace_high)]
            if not grown:
                break
            target, cards = self.rng.choice(grown)
            if not keeps_a_throw(read_extension(table[target], cards).added):
                break
            layoffs.append(self._lay_off(table, hand, target, cards, ace_high))
        left = sorted(hand.elements())
        throwable = [c for c in left if c != view.taken_top]
        if left and not throwable:  # only the top taken alone is left: lay nothing down
            return play((), (), self.rng.choice([c for c in view.hand if c != view.taken_top]))
        return play(melds, layoffs, self.rng.choice(throwable) if left else None)

    def table(self, view: PlayerView) -> list[Meld]:
        """The table melds of ``view`` as the referee reads them."""
        out = []
        for meld in view.table:
            key = (meld.cards, meld.kind, view.variant.ace_high)
            if key not in self.readings:
                self.readings[key] = read_meld(meld.cards, "run" if meld.kind == "run" else "set",
                                               ace_high=view.variant.ace_high)
            out.append(self.readings[key])
        return out

    @staticmethod
    def _lay_off(table: list[Meld], hand: Counter[int], target: int,
                 cards: tuple[int, ...], ace_high: bool) -> Layoff:
        extension = read_extension(table[target], cards, ace_high=ace_high)
        hand.subtract(extension.added)
        table[target] = extension.meld
        return Layoff(target, cards)

