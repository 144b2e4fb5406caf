"""The rest of a gin hand played out fast, in one world where every card is placed.

A ``World`` is one guess at what a player cannot see (the opponent's hand,
the stock's order) together with what it can (its hand, the pile, whose turn
it is).  ``play_out`` plays the hand to its end with two fast players and
returns the points of seat 0 (the advisor's side): both draw the pile top
only when it goes into a meld, discard the card whose loss costs least (the
higher card on ties, never the card just taken) and knock by their
``KnockStyle``.  A knock is scored exactly (``scoring``); a hand that reaches
the wall without a knock scores 0.

The players see only their own hand and the pile: they are the advisor's
model of how a hand goes on, not a referee.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.objective import TIE_SCALE
from solver.play.gin.hands import GinHands
from solver.play.gin.scoring import defender_deadwood, knock_points
from solver.rules import Rules

WALL = 2


@dataclass(frozen=True, slots=True)
class KnockStyle:
    """When a simulated player knocks: with deadwood at most the limit, in its
    first ``early_turns`` turns; later only with deadwood at most
    ``late_deadwood`` (0: play for gin) unless the stock is down to
    ``stuck_stock`` cards."""

    early_turns: int = 99
    late_deadwood: int = 99
    stuck_stock: int = 99

    def knocks(self, deadwood: int, limit: int, turn: int, stock: int) -> bool:
        """Whether to knock with ``deadwood`` on this player's ``turn`` (from 1)."""
        if deadwood > limit:
            return False
        return deadwood == 0 or turn <= self.early_turns or deadwood <= self.late_deadwood \
            or stock <= self.stuck_stock


AT_ONCE = KnockStyle()
"""Knock as soon as the deadwood allows (the simple bots)."""
FOR_GIN = KnockStyle(early_turns=3, late_deadwood=0, stuck_stock=10)
"""Knock early if at all, then play for gin until the stock runs low."""


@dataclass(slots=True)
class World:
    """One full deal state (see the module docstring); seat 0 is the advisor."""

    hands: list[int]
    stock: list[int]
    """The stock, the next card drawn last."""
    pile: list[int]
    to_act: int
    turns: list[int]
    """Turns each seat has completed."""
    taken: int | None = None
    """The card the seat to act took from the pile this turn (it must discard)."""
    drawn: bool = False
    """The seat to act has drawn this turn (it must discard)."""
    opponent_style: KnockStyle = AT_ONCE
    """How the opponent of this world knocks."""
    shown: list[int] = field(default_factory=lambda: [0, 0])
    """Per seat, the cards it took from the pile and still holds: the other
    seat saw them (a careful player does not feed them)."""

    def copy(self) -> World:
        """An independent copy."""
        return World(list(self.hands), list(self.stock), list(self.pile), self.to_act,
                     list(self.turns), self.taken, self.drawn, self.opponent_style,
                     list(self.shown))


def _feeding(card: int) -> int:
    """The cards ``card`` would help a holder of them meld: its rank in the
    other suits, its suit within two ranks."""
    rank, suit = card % 13, card // 13
    mask = sum(1 << (other * 13 + rank) for other in range(4) if other != suit)
    for step in (-2, -1, 1, 2):
        if 0 <= rank + step < 13:
            mask |= 1 << (suit * 13 + rank + step)
    return mask


FEEDS = tuple(_feeding(card) for card in range(52))
"""Per card, the cards whose holder it would feed (``FEEDS[c] & shown``)."""


class Simulator:
    """Plays worlds out under one deal's rules and knock limit."""

    def __init__(self, hands: GinHands, rules: Rules, knock_limit: int,
                 careful_slack: int = 0) -> None:
        self.hands = hands
        self.rules = rules
        self.limit = knock_limit
        self.careful = careful_slack * TIE_SCALE
        """Cost a player gives up not to throw a card that feeds what the other
        took from the pile (0: it does not read the pile)."""

    def careful_discard(self, hand: int, taken: int | None, shown: int) -> tuple[int, int]:
        """``discard``, but a card that feeds the other's pile takes (``shown``)
        is kept when another costs at most ``careful`` more."""
        cost, card = self.discard(hand, taken)
        if not self.careful or not FEEDS[card] & shown:
            return cost, card
        keep = 0 if taken is None else 1 << taken
        points = self.hands.points
        safer = [(c, -points[k], k) for c, k in self.hands.discard_costs(hand, keep)
                 if not FEEDS[k] & shown and c <= cost + self.careful]
        if not safer:
            return cost, card
        best = min(safer)
        return best[0], best[2]

    def takes(self, hand: int, top: int) -> bool:
        """Whether a fast player takes ``top``: only when it goes into a meld
        (the hand with it costs less than the hand with it loose)."""
        return self.hands.melds_with(hand, top)

    def discard(self, hand: int, taken: int | None) -> tuple[int, int]:
        """``(cost, card)``: the discard that keeps the least cost, the higher
        card on ties, never ``taken``."""
        return self.hands.discard_cost(hand, -1 if taken is None else taken)

    def knock_score(self, knocker: int, defender: int) -> int:
        """The knocker's points when it knocks with ``knocker`` (its 10 cards)."""
        (deadwood, melds), reach = self.hands.knock_shape(knocker)
        if deadwood == 0 or not defender & reach:  # gin, or nothing to lay off
            return knock_points(self.rules, deadwood, self.hands.deadwood(defender))
        return knock_points(self.rules, deadwood,
                            defender_deadwood(self.hands, melds, defender))

    def play_out(self, world: World, plans: Sequence[KnockStyle],
                 opponent: KnockStyle, my_next_take: bool | None = None) -> list[int]:
        """Seat 0's points at the end of the hand (0 at the wall) under each of
        its ``plans``, the opponent knocking by ``opponent``; ``world`` is used
        up.  ``my_next_take``: seat 0's next draw is the pile top (True) or the
        stock (False) whatever the policy says (a searched draw).  Plans differ
        only in when they knock, so they share one play: a plan that knocks is
        scored there and the others go on.

        >>> from solver.play.gin.hands import mask_of
        >>> from solver.rules import make_deal, make_rules
        >>> deal = make_deal(make_rules("gin"))
        >>> simulator = Simulator(GinHands(deal), deal.rules, 10)
        >>> # seat 0 drew to A-3S, 7H 7D 7C, 4C 5C 6C, QD QH: one queen goes, 10 left
        >>> mine = mask_of([0, 1, 2, 19, 32, 45, 42, 43, 44, 37, 24])
        >>> theirs = mask_of([3, 4, 5, 6, 16, 17, 29, 30, 48, 49])
        >>> stock = [7, 8, 9, 10, 11, 12, 20, 21, 22, 23, 25, 33]
        >>> world = World([mine, theirs], stock, [50], 0, [4, 4], drawn=True)
        >>> simulator.play_out(world, (AT_ONCE, FOR_GIN), AT_ONCE)  # knock now; play on
        [16, 14]
        """
        hands, stock, pile, turns = world.hands, world.stock, world.pile, world.turns
        shown = world.shown
        points: list[int | None] = [None] * len(plans)
        waiting = list(range(len(plans)))
        seat = world.to_act
        taken = world.taken
        must_discard = world.drawn
        while True:
            hand = hands[seat]
            if not must_discard:
                if len(stock) <= WALL:
                    outcome = self._at_wall(world, seat)
                    return [outcome if p is None else p for p in points]
                top = pile[-1] if pile else None
                if seat == 0 and my_next_take is not None:  # a draw the caller chose
                    take = my_next_take and top is not None
                    my_next_take = None
                else:
                    take = top is not None and self.takes(hand, top)
                if take and top is not None:
                    pile.pop()
                    hand |= 1 << top
                    taken = top
                    shown[seat] |= 1 << top
                else:
                    hand |= 1 << stock.pop()
                    taken = None
            must_discard = False
            cost, card = self.careful_discard(hand, taken, shown[1 - seat]) if self.careful \
                else self.discard(hand, taken)
            shown[seat] &= ~(1 << card)
            hand &= ~(1 << card)
            hands[seat] = hand
            pile.append(card)
            turns[seat] += 1
            deadwood = cost // TIE_SCALE
            if seat == 1:
                if opponent.knocks(deadwood, self.limit, turns[1], len(stock)):
                    outcome = -self.knock_score(hand, hands[0])
                    return [outcome if p is None else p for p in points]
            elif deadwood <= self.limit:
                knocking = [i for i in waiting
                            if plans[i].knocks(deadwood, self.limit, turns[0], len(stock))]
                if knocking:
                    outcome = self.knock_score(hand, hands[1])
                    for i in knocking:
                        points[i] = outcome
                    waiting = [i for i in waiting if points[i] is None]
                    if not waiting:
                        return [p for p in points if p is not None]
            seat = 1 - seat
            taken = None

    def _at_wall(self, world: World, seat: int) -> int:
        """At the wall a player may knock with the pile top, else the hand is void."""
        hands, pile = world.hands, world.pile
        if not pile:
            return 0
        hand = hands[seat] | 1 << pile[-1]
        cost, card = self.discard(hand, pile[-1])
        if cost // TIE_SCALE > self.limit:
            return 0
        hand &= ~(1 << card)
        points = self.knock_score(hand, hands[1 - seat])
        return points if seat == 0 else -points
