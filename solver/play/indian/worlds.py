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

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from solver.play.indian.hands import IndianHands
from solver.play.indian.params import INDIAN_PARAMS, IndianParams
from solver.play.indian.state import IndianState
from solver.play.worlds import WeightedSampler, let_go_likelihood

RANKS = 13


@dataclass(slots=True)
class World:
    """One guess at the hidden cards: each opponent's hand (by seat; dropped
    players' hands are dealt too, out of play) and the stock (drawn from the end)."""

    hands: dict[int, list[int]]
    stock: list[int]
    race: object = None
    """What the advisor read of the opponents in this world, once (its own business)."""


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


class WorldSampler(WeightedSampler[World, World]):
    """Equally likely worlds consistent with a state (see the module docstring)."""

    def __init__(self, state: IndianState, hands: IndianHands, rng: random.Random,
                 params: IndianParams = INDIAN_PARAMS) -> None:
        super().__init__(rng, params.oversample)
        self.state = state
        self.hands = hands
        self.params = params
        self.pool = list(state.unseen)
        self.seats = list(state.opponents)
        self.hidden = [seat.size - len(seat.known) for seat in self.seats]

    def deal(self) -> tuple[float, World]:
        """One raw deal of the hidden cards and its likelihood."""
        rng, hands, params = self.rng, self.hands, self.params
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
            weight = let_go_likelihood(weight, seat.discarded[-params.recent:],
                                       seat.declined[-params.recent:], partial(fits, hands, hand),
                                       params.threw_a_fitting_card, params.passed_a_fitting_card)
        return weight, World(dealt, pool[start:])

    def world(self, raw: World) -> World:
        """A fresh copy of a raw deal."""
        return World({s: list(h) for s, h in raw.hands.items()}, list(raw.stock))
