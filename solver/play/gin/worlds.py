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

import math
import random
import time
from collections.abc import Sequence

from solver.play.gin.hands import GinHands, cards_of, mask_of
from solver.play.gin.simulate import AT_ONCE, FOR_GIN, KnockStyle, World
from solver.play.gin.state import GinState

THREW_A_MELD_CARD = 0.35
"""Likelihood factor of a deal in which a card the opponent threw melds with its hand."""
PASSED_A_MELD_CARD = 0.25
"""Likelihood factor of a deal in which a card it let go by melds with its hand."""
OVERSAMPLE = 2
"""Raw deals drawn per world kept."""
PRACTICE = 14
"""At most this many practice turns shape the opponent's hand (see ``practised``)."""
PRACTICE_PER_TURN = 1.4
"""Practice turns per turn the opponent played: a plain greedy player sheds
deadwood more slowly than real players, who also take pile cards and plan
for melds (a turn-by-turn comparison with the arena's bots: at their sixth
turn these guesses average about 20 points of deadwood, the bots 19-24)."""


STYLE_PRIOR: tuple[tuple[KnockStyle, float], ...] = ((AT_ONCE, 0.75), (FOR_GIN, 0.25))
"""How the opponent may knock, with the prior chance of each: most players
knock as soon as they can, some play for gin.  What the opponent has not
done then weighs each world (one that knocks at once and has not knocked
holds more than the limit).  Measured against an even prior on the same
2,000 arena hands: +1.4 +- 1.3 points a hand against OpenSpiel's simple
bot, +0.1 +- 1.2 against the EAAI port (both knock at once); no change seen
against a MARJJ-style player, which plays for gin (benchmarks/README.md,
2026-12-02)."""


def likelihood(hands: GinHands, opponent: int, threw: Sequence[int],
               passed: Sequence[int]) -> float:
    """How well the opponent hand ``opponent`` explains what it threw and passed."""
    weight = 1.0
    for card in threw:
        if hands.melds_with(opponent, card):
            weight *= THREW_A_MELD_CARD
    for card in passed:
        if hands.melds_with(opponent, card):
            weight *= PASSED_A_MELD_CARD
    return weight


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


def turns_taken(state: GinState) -> list[int]:
    """Turns completed per seat, the advisor's first (world seat 0)."""
    counts = [0, 0]
    for event in state.history:
        if event.action in ("discard", "knock"):
            counts[0 if event.player == state.me else 1] += 1
    return counts


class WorldSampler:
    """Equally likely worlds consistent with a state, dealt in batches (see
    the module docstring): seat 0 is the advisor; each world has how its
    opponent knocks (one of ``styles``, drawn with its prior chance).  An opponent that
    knocks at once and has not knocked holds more than ``knock_limit`` of
    deadwood, so a deal where it would have knocked is not kept."""

    def __init__(self, state: GinState, hands: GinHands, rng: random.Random,
                 knock_limit: int = -1,
                 styles: Sequence[tuple[KnockStyle, float]] = STYLE_PRIOR) -> None:
        knowledge = state.knowledge
        self.state = state
        self.hands = hands
        self.rng = rng
        self.limit = knock_limit
        self.styles = [style for style, _ in styles]
        self.style_chances = [chance for _, chance in styles]
        self.known = mask_of(knowledge.opponent_known)
        self.unseen = sorted(knowledge.unseen)
        self.hidden = knowledge.opponent_size - len(knowledge.opponent_known)
        self.threw = knowledge.opponent_discarded[-6:]
        self.passed = knowledge.opponent_declined[-6:]
        played = len(knowledge.opponent_discarded)
        self.practice = min(PRACTICE, round(PRACTICE_PER_TURN * played) + (1 if played else 0))
        self.has_played = played > 0
        self.me = mask_of(state.hand)
        self.turns = turns_taken(state)

    def _deal(self) -> tuple[float, int, list[int], KnockStyle]:
        """One raw deal and its likelihood."""
        rng, hands = self.rng, self.hands
        shuffled = self.unseen[:]
        rng.shuffle(shuffled)
        stock = shuffled[self.hidden:]
        opponent = practised(hands, self.known | mask_of(shuffled[:self.hidden]), self.known,
                             stock, self.practice, rng)
        rng.shuffle(stock)
        style = rng.choices(self.styles, self.style_chances)[0]
        weight = likelihood(hands, opponent, self.threw, self.passed)
        if self.has_played and style.early_turns > 90 and hands.deadwood(opponent) <= self.limit:
            weight = 0.0  # it would have knocked
        return weight, opponent, stock, style

    def take(self, count: int, until: float = math.inf) -> list[World]:
        """``count`` more worlds (importance resampled from twice as many
        deals); fewer, one at least, when the clock (``time.monotonic``)
        reaches ``until``."""
        deals = []
        for _ in range(count * OVERSAMPLE):
            deals.append(self._deal())
            if time.monotonic() >= until:
                count = max(1, len(deals) // OVERSAMPLE)
                break
        weights = [deal[0] for deal in deals]
        if not any(weights):
            weights = [1.0] * len(deals)
        state = self.state
        worlds = []
        for index in self.rng.choices(range(len(deals)), weights=weights, k=count):
            _, opponent, stock, style = deals[index]
            worlds.append(World([self.me, opponent], list(stock), list(state.discard_pile), 0,
                                list(self.turns), state.taken_this_turn, state.phase == "discard",
                                style))
        return worlds

