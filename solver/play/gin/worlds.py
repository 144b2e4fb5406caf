"""Guesses at what a gin player cannot see, weighted by what the opponent did.

The cards a player cannot see are the opponent's hand (less the cards it is
known to hold: it took them from the pile) and the stock.  ``sample_worlds``
deals them out at random, many times, and keeps each deal with a weight: the
likelihood of what the opponent did under a plain model of play -- it keeps
the cards that make its melds, so a deal where a card it threw or let go by
(drew from the stock over it, passed it as the first upcard) would have
gone into one of its melds is less likely.  Deals are drawn by importance
resampling, so the returned worlds are equally weighted.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from solver.objective import TIE_SCALE
from solver.play.gin.hands import GinHands, mask_of
from solver.play.gin.simulate import World
from solver.play.gin.state import GinState

THREW_A_MELD_CARD = 0.35
"""Likelihood factor of a deal in which a card the opponent threw melds with its hand."""
PASSED_A_MELD_CARD = 0.25
"""Likelihood factor of a deal in which a card it let go by melds with its hand."""
OVERSAMPLE = 3
"""Raw deals drawn per world kept."""


def melds_with(hands: GinHands, hand: int, card: int) -> bool:
    """Whether ``card`` goes into a meld of ``hand`` plus it."""
    return hands.cost(hand | 1 << card) < hands.cost(hand) + hands.points[card] * TIE_SCALE + 1


def likelihood(hands: GinHands, opponent: int, threw: Sequence[int],
               passed: Sequence[int]) -> float:
    """How well the opponent hand ``opponent`` explains what it threw and passed."""
    weight = 1.0
    for card in threw:
        if melds_with(hands, opponent, card):
            weight *= THREW_A_MELD_CARD
    for card in passed:
        if melds_with(hands, opponent, card):
            weight *= PASSED_A_MELD_CARD
    return weight


def turns_taken(state: GinState) -> list[int]:
    """Turns completed per seat, the advisor's first (world seat 0)."""
    counts = [0, 0]
    for event in state.history:
        if event.action in ("discard", "knock"):
            counts[0 if event.player == state.me else 1] += 1
    return counts


def sample_worlds(state: GinState, hands: GinHands, rng: random.Random,
                  count: int) -> list[World]:
    """``count`` equally likely worlds consistent with ``state`` (seat 0: the advisor)."""
    knowledge = state.knowledge
    known = mask_of(knowledge.opponent_known)
    unseen = sorted(knowledge.unseen)
    hidden = knowledge.opponent_size - len(knowledge.opponent_known)
    threw = knowledge.opponent_discarded[-6:]
    passed = knowledge.opponent_declined[-6:]
    deals: list[tuple[int, list[int]]] = []
    weights: list[float] = []
    for _ in range(count * OVERSAMPLE if threw or passed else count):
        shuffled = unseen[:]
        rng.shuffle(shuffled)
        opponent = known | mask_of(shuffled[:hidden])
        deals.append((opponent, shuffled[hidden:]))
        weights.append(likelihood(hands, opponent, threw, passed))
    chosen = rng.choices(range(len(deals)), weights=weights, k=count) \
        if len(deals) > count else range(len(deals))
    me = mask_of(state.hand)
    turns = turns_taken(state)
    taken = state.taken_this_turn
    drawn = state.phase == "discard"
    worlds = []
    for index in chosen:
        opponent, stock = deals[index]
        worlds.append(World([me, opponent], list(stock), list(state.discard_pile), 0,
                            list(turns), taken, drawn))
    return worlds
