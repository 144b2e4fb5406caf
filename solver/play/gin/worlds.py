"""Guesses at what a gin player cannot see, weighted by what the opponent did.

The cards a player cannot see are the opponent's hand (less the cards it is
known to hold: it took them from the pile) and the stock.  ``WorldSampler``
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
from functools import partial

from solver.play.gin.hands import GinHands, cards_of, mask_of
from solver.play.gin.params import GIN_PARAMS, GinParams
from solver.play.gin.simulate import KnockStyle, World
from solver.play.gin.state import GinState
from solver.play.words import AFTER_DRAW, DISCARD, KNOCK, TAKE_DISCARD
from solver.play.worlds import WeightedSampler, let_go_likelihood

RawDeal = tuple[int, list[int], KnockStyle]
"""A raw deal: the opponent's hand, the stock, how the opponent knocks."""


def likelihood(hands: GinHands, opponent: int, threw: Sequence[int], passed: Sequence[int],
               params: GinParams = GIN_PARAMS) -> float:
    """How well the opponent hand ``opponent`` explains what it threw and passed."""
    return let_go_likelihood(1.0, threw, passed, partial(hands.melds_with, opponent),
                             params.threw_a_meld_card, params.passed_a_meld_card)


def practised(hands: GinHands, opponent: int, keep: int, pool: list[int], draws: int,
              rng: random.Random) -> int:
    """The opponent's hand after playing ``draws`` turns as a player who keeps
    its deadwood low would: each turn it draws a card of ``pool`` and throws
    the card it misses least (never one of ``keep``, which it is known to
    hold); what it throws goes back to the pool.  A random deal of the
    hidden cards looks like a fresh deal; a real hand several turns in has
    shed its high loose cards, and this makes the guesses look like that."""
    for _ in range(draws):
        index = rng.randrange(len(pool))
        card = pool[index]
        hand = opponent | 1 << card
        out = hands.discard_cost(hand)[1]
        if keep >> out & 1:  # it holds what it took: throw the best other card
            out = min((c for c in cards_of(hand & ~keep)),
                      key=lambda c: hands.cost(hand & ~(1 << c)))
        opponent = hand & ~(1 << out)
        pool[index] = out
    return opponent


def taken_and_held(state: GinState) -> list[int]:
    """The cards this player took from the pile and still holds (the opponent saw them)."""
    held: list[int] = []
    for event in state.history:
        if event.player != state.me or event.card is None:
            continue
        if event.action == TAKE_DISCARD:
            held.append(event.card)
        elif event.action in (DISCARD, KNOCK) and event.card in held:
            held.remove(event.card)
    return held


def turns_taken(state: GinState) -> list[int]:
    """Turns completed per seat, the advisor's first (world seat 0)."""
    counts = [0, 0]
    for event in state.history:
        if event.action in (DISCARD, KNOCK):
            counts[0 if event.player == state.me else 1] += 1
    return counts


class WorldSampler(WeightedSampler[RawDeal, World]):
    """Equally likely worlds consistent with a state, dealt in batches (see
    the module docstring): seat 0 is the advisor; each world has how its
    opponent knocks (one of ``params.style_prior``, drawn with its prior
    chance).  An opponent that knocks at once and has not knocked holds more
    than ``knock_limit`` of deadwood, so a deal where it would have knocked
    is not kept."""

    def __init__(self, state: GinState, hands: GinHands, rng: random.Random,
                 knock_limit: int = -1, params: GinParams = GIN_PARAMS) -> None:
        super().__init__(rng, params.oversample)
        knowledge = state.knowledge
        self.state = state
        self.hands = hands
        self.limit = knock_limit
        self.params = params
        self.styles = [style for style, _ in params.style_prior]
        self.style_chances = [chance for _, chance in params.style_prior]
        self.known = mask_of(knowledge.opponent_known)
        self.unseen = sorted(knowledge.unseen)
        self.hidden = knowledge.opponent_size - len(knowledge.opponent_known)
        self.threw = knowledge.opponent_discarded[-params.recent:]
        self.passed = knowledge.opponent_declined[-params.recent:]
        played = len(knowledge.opponent_discarded)
        self.practice = min(params.practice,
                            round(params.practice_per_turn * played) + (1 if played else 0))
        self.has_played = played > 0
        self.me = mask_of(state.hand)
        self.turns = turns_taken(state)
        self.shown = [mask_of(taken_and_held(state)), self.known]
        """What each seat took from the pile and still holds (the other saw it)."""

    def deal(self) -> tuple[float, RawDeal]:
        """One raw deal and its likelihood."""
        rng, hands = self.rng, self.hands
        shuffled = self.unseen[:]
        rng.shuffle(shuffled)
        stock = shuffled[self.hidden:]
        opponent = practised(hands, self.known | mask_of(shuffled[:self.hidden]), self.known,
                             stock, self.practice, rng)
        rng.shuffle(stock)
        style = rng.choices(self.styles, self.style_chances)[0]
        weight = likelihood(hands, opponent, self.threw, self.passed, self.params)
        if self.has_played and style.early_turns > 90 and hands.deadwood(opponent) <= self.limit:
            weight = 0.0  # it would have knocked
        return weight, (opponent, stock, style)

    def world(self, raw: RawDeal) -> World:
        """The world of a raw deal (fresh lists: a playout uses a world up)."""
        opponent, stock, style = raw
        state = self.state
        return World([self.me, opponent], list(stock), list(state.discard_pile), 0,
                     list(self.turns), state.taken_this_turn, state.phase == AFTER_DRAW, style,
                     list(self.shown))
