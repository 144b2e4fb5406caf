"""Guesses at what an Indian rummy player cannot see, weighted by what the others did.

The cards a player cannot see are the other players' hands (less the cards
each is known to hold: it took them from the pile) and the stock.
``WorldSampler`` deals them out at random, many times, and keeps each deal
with a weight: the likelihood of what the opponents did under a plain model
of play -- a player keeps the cards that work with its hand, so a deal in
which a card it threw, or a pile top it let go by drawing from the stock,
would have worked with its hand is less likely.  Deals are drawn by
importance resampling, so the returned worlds are equally weighted.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from solver.play.indian.hands import IndianHands
from solver.play.indian.state import IndianState

RANKS = 13
THREW_A_FITTING_CARD = 0.35
"""Likelihood factor of a deal in which a card an opponent threw fits its hand."""
PASSED_A_FITTING_CARD = 0.4
"""Likelihood factor of a deal in which a pile top it let go by fits its hand."""
RECENT = 6
"""The last throws and passes of each opponent that weigh a deal."""
OVERSAMPLE = 2
"""Raw deals drawn per world kept."""


@dataclass(slots=True)
class World:
    """One guess at the hidden cards: each opponent's hand (by seat; dropped
    players' hands are dealt too, out of play) and the stock (drawn from the end)."""

    hands: dict[int, list[int]]
    stock: list[int]


def fits(hands: IndianHands, hand: Sequence[int], card: int) -> bool:
    """Whether ``card`` works with ``hand``: a wild card, or a natural card
    of the same suit within two ranks, or of the same rank in another suit."""
    wild = hands.wild
    if wild[card]:
        return True
    suit, rank = divmod(card, RANKS)
    for other in hand:
        if wild[other] or other == card:
            continue
        other_suit, other_rank = divmod(other, RANKS)
        if other_suit == suit:
            gap = abs(other_rank - rank)
            if 0 < gap <= 2 or gap >= 11:  # the ace next to the king
                return True
        elif other_rank == rank:
            return True
    return False


class WorldSampler:
    """Equally likely worlds consistent with a state (see the module docstring)."""

    def __init__(self, state: IndianState, hands: IndianHands, rng: random.Random) -> None:
        self.state = state
        self.hands = hands
        self.rng = rng
        self.pool = list(state.unseen)
        self.seats = [seat for seat in state.opponents]
        self.hidden = [seat.size - len(seat.known) for seat in self.seats]

    def _deal(self) -> tuple[float, World]:
        rng, hands = self.rng, self.hands
        pool = self.pool[:]
        rng.shuffle(pool)
        dealt: dict[int, list[int]] = {}
        weight = 1.0
        start = 0
        for seat, hidden in zip(self.seats, self.hidden, strict=True):
            hand = list(seat.known) + pool[start:start + hidden]
            start += hidden
            dealt[seat.seat] = hand
            if seat.dropped is not None:
                continue
            for card in seat.discarded[-RECENT:]:
                if fits(hands, hand, card):
                    weight *= THREW_A_FITTING_CARD
            for card in seat.declined[-RECENT:]:
                if fits(hands, hand, card):
                    weight *= PASSED_A_FITTING_CARD
        return weight, World(dealt, pool[start:])

    def take(self, count: int, until: float = math.inf) -> list[World]:
        """``count`` worlds (importance resampled from ``OVERSAMPLE`` times as
        many deals); fewer, one at least, when the clock reaches ``until``."""
        deals: list[tuple[float, World]] = []
        for _ in range(count * OVERSAMPLE):
            deals.append(self._deal())
            if time.monotonic() >= until:
                count = max(1, len(deals) // OVERSAMPLE)
                break
        weights = [w for w, _ in deals]
        if not any(weights):
            weights = [1.0] * len(deals)
        picked = self.rng.choices(range(len(deals)), weights=weights, k=count)
        return [World({s: list(h) for s, h in deals[i][1].hands.items()}, list(deals[i][1].stock))
                for i in picked]
